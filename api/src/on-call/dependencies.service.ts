import { ForbiddenException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { hasPermission, type BreakerDependencies, type BreakerDependenciesView, type Dependency } from '@cbh/contracts';
import { AuditService, type AppRequest, type SessionUser } from '../identity';
import { AlertGroupsRepository } from './alert-groups.repository';
import { DependenciesRepository } from './dependencies.repository';
import { BreakerDependencyEntity } from './entities/breaker-dependency.entity';

const keyOf = (dependency: Dependency) => (dependency.kind === 'service' ? dependency.name.toLowerCase() : String(dependency.id));

/**
 * What a breaker depends on: while a parent's alert group is open, the breaker's events join it as caused by it
 * (alert-group-router.ts) instead of opening a group of their own and paging again.
 */
@Injectable()
export class DependenciesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly names: DependenciesRepository,
    private readonly groups: AlertGroupsRepository,
    private readonly audit: AuditService,
  ) {}

  /** Without domain_management a domain parent is named by nothing but its kind, and its group is not shown. */
  async of(breakerId: number, user: SessionUser): Promise<BreakerDependenciesView> {
    const { quietedBy, ...view } = await this.read(breakerId);
    const quieted = quietedBy ? { groupId: quietedBy.groupId, title: quietedBy.title } : null;
    if (hasPermission(user, 'domain_management')) return { ...view, quietedBy: quieted };
    return {
      ...view,
      dependsOn: view.dependsOn.map((parent) => (parent.kind === 'domain' ? { kind: 'domain', id: null, name: 'a domain' } : parent)),
      quietedBy: quietedBy?.domain ? null : quieted,
    };
  }

  private async read(
    breakerId: number,
  ): Promise<BreakerDependenciesView & { quietedBy: { groupId: number; title: string; domain?: boolean } | null }> {
    await this.breakerExists(breakerId);
    const rows = await this.dataSource
      .getRepository(BreakerDependencyEntity)
      .find({ where: { breakerId }, order: { parentKind: 'ASC', parentKey: 'ASC' } });
    const ids = (kind: string) => rows.filter((row) => row.parentKind === kind).map((row) => Number(row.parentKey));
    const names = new Map<string, string>([
      ...(await this.names.domains(ids('domain'))).map((row) => [`domain:${row.id}`, row.name] as const),
      ...(await this.names.breakers(ids('breaker'))).map((row) => [`breaker:${row.id}`, row.name] as const),
    ]);
    const parent = await this.dataSource.transaction((manager) => this.groups.parentGroupOf(manager, breakerId));
    return {
      breakerId,
      dependsOn: rows.map((row) =>
        row.parentKind === 'service'
          ? { kind: 'service' as const, id: null, name: row.parentKey }
          : { kind: row.parentKind, id: Number(row.parentKey), name: names.get(`${row.parentKind}:${row.parentKey}`) ?? 'deleted' },
      ),
      quietedBy: parent ? { groupId: parent.id, title: parent.title, domain: parent.subjectKind === 'domain' } : null,
    };
  }

  async replace(req: AppRequest, breakerId: number, body: BreakerDependencies): Promise<BreakerDependenciesView> {
    await this.breakerExists(breakerId);
    const before = await this.read(breakerId);
    // domains are named only by those who may read them, and a domain parent is kept or dropped only by them
    const touchesDomains = [...body.dependsOn, ...before.dependsOn].some((dependency) => dependency.kind === 'domain');
    if (touchesDomains && !hasPermission(req.user, 'domain_management'))
      throw new ForbiddenException('Requires the domain_management permission to make a breaker depend on a domain');
    const wanted = [...new Map(body.dependsOn.map((dependency) => [`${dependency.kind}:${keyOf(dependency)}`, dependency])).values()];
    const idsOf = (kind: 'domain' | 'breaker') => wanted.flatMap((dependency) => (dependency.kind === kind ? [dependency.id] : []));
    const domains = new Set((await this.names.domains(idsOf('domain'))).map((row) => row.id));
    const breakers = new Set((await this.names.breakers(idsOf('breaker'))).map((row) => row.id));
    wanted.forEach((dependency, index) => {
      if (dependency.kind === 'domain' && !domains.has(dependency.id))
        throw new UnprocessableEntityException(`dependsOn[${index}]: no domain with id ${dependency.id}`);
      if (dependency.kind === 'breaker' && (!breakers.has(dependency.id) || dependency.id === breakerId))
        throw new UnprocessableEntityException(
          `dependsOn[${index}]: ${dependency.id === breakerId ? 'a breaker cannot depend on itself' : `no breaker with id ${dependency.id}`}`,
        );
    });
    await this.dataSource.transaction(async (manager) => {
      const repository = manager.getRepository(BreakerDependencyEntity);
      await repository.delete({ breakerId });
      if (wanted.length)
        await repository.insert(wanted.map((dependency) => ({ breakerId, parentKind: dependency.kind, parentKey: keyOf(dependency) })));
      await this.audit.record(
        req,
        {
          action: 'breaker-dependencies.update',
          targetType: 'circuit_breaker',
          targetId: String(breakerId),
          before: before.dependsOn,
          after: wanted,
        },
        manager,
      );
    });
    return this.of(breakerId, req.user!);
  }

  private async breakerExists(id: number) {
    if ((await this.names.breakers([id])).length === 0) throw new NotFoundException(`No circuit breaker with id ${id}`);
  }
}

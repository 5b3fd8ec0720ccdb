import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BreakerDependencies, BreakerDependenciesView, Dependency } from '@cbh/contracts';
import { AuditService, type AppRequest } from '../identity';
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

  async of(breakerId: number): Promise<BreakerDependenciesView> {
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
      quietedBy: parent ? { groupId: parent.id, title: parent.title } : null,
    };
  }

  async replace(req: AppRequest, breakerId: number, body: BreakerDependencies): Promise<BreakerDependenciesView> {
    await this.breakerExists(breakerId);
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
    const before = await this.of(breakerId);
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
    return this.of(breakerId);
  }

  private async breakerExists(id: number) {
    if ((await this.names.breakers([id])).length === 0) throw new NotFoundException(`No circuit breaker with id ${id}`);
  }
}

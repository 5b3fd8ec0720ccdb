import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { OrganizationView } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import type { AppRequest } from '../auth/session-user';
import { OrganizationEntity, toOrganizationView } from '../users/entities/organization.entity';
import { TokensService } from '../tokens/tokens.service';
import { OrganizationSettings } from './organization-settings.service';

export type OrganizationPatch = Partial<Omit<OrganizationView, 'id'>>;

/** The organisation and its settings. */
@Injectable()
export class OrganizationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly settings: OrganizationSettings,
    private readonly tokens: TokensService,
  ) {}

  async list(): Promise<OrganizationView[]> {
    return (await this.dataSource.getRepository(OrganizationEntity).find({ order: { createdAt: 'ASC' } })).map(toOrganizationView);
  }

  /** Changes the settings, audited; every replica applies them at once. */
  async update(req: AppRequest, id: string, patch: OrganizationPatch): Promise<OrganizationView> {
    const view = await this.dataSource.transaction(async (manager) => {
      const organizations = manager.getRepository(OrganizationEntity);
      const organization = await organizations.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!organization) throw new NotFoundException(`No organization with id ${id}`);
      const before = toOrganizationView(organization);
      await organizations.update({ id: organization.id }, patch);
      const after = toOrganizationView(await organizations.findOneByOrFail({ id: organization.id }));
      await this.audit.record(
        req,
        { action: 'organization.update', targetType: 'organization', targetId: organization.id, before, after },
        manager,
      );
      // a lowered limit holds for the tokens already issued too: none outlives the policy (announceChange drops the caches)
      if (after.maxTokenDays < before.maxTokenDays) {
        const shortened = await this.tokens.capLifetimes(manager, after.maxTokenDays);
        await this.audit.record(
          req,
          {
            action: 'tokens.lifetime-capped',
            targetType: 'organization',
            targetId: organization.id,
            after: { maxTokenDays: after.maxTokenDays, shortened },
          },
          manager,
        );
      }
      return after;
    });
    await this.settings.announceChange();
    return view;
  }
}

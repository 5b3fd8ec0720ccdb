import {
  ConflictException,
  ForbiddenException,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  hasPermission,
  PRUNED_KINDS,
  RETENTION_SETTINGS,
  type PruneCounts,
  type PruneResultView,
  type RetentionSettings,
  type RetentionView,
} from '@cbh/contracts';
import { type AppRequest, AuditService } from '../identity';
import { PeriodicWork, type Repeating } from '../platform';
import { toRetentionView, type RetentionSettingsEntity } from './entities/retention-settings.entity';
import { RetentionRepository } from './retention.repository';

/** How often each replica asks whether the daily prune is due; the first replica to ask after a day has passed runs it. */
const DUE_CHECK_EVERY_MS = 10 * 60_000;

const settingsOf = (row: RetentionSettingsEntity): RetentionSettings =>
  Object.fromEntries(RETENTION_SETTINGS.map((setting) => [setting, row[setting]])) as RetentionSettings;

/**
 * Data retention: the settings (one row every replica reads) and the daily prune, which exactly one replica runs
 * each day by claiming it on that row. An operator may run it at once with POST /api/system/retention/prune.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionService.name);
  private pruning?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly repository: RetentionRepository,
    private readonly audit: AuditService,
  ) {}

  onApplicationBootstrap() {
    this.pruning = this.work.every(
      DUE_CHECK_EVERY_MS,
      () => this.pruneIfDue(),
      (error) => this.logger.warn(`retention prune failed: ${error.message}`),
    );
  }

  onApplicationShutdown() {
    void this.pruning?.stop();
  }

  async view(): Promise<RetentionView> {
    return toRetentionView(await this.repository.settings());
  }

  async update(req: AppRequest, patch: Partial<RetentionSettings>): Promise<RetentionView> {
    const after = await this.dataSource.transaction(async (manager) => {
      const changed = await this.repository.update(manager, patch);
      // judged on the locked row, so two changes at once cannot each pass as "not lower"; refusing rolls the change back
      if (changed.after.auditDays < changed.before.auditDays && !hasPermission(req.user, 'audit_access')) {
        throw new ForbiddenException('Requires the audit_access permission to lower the audit retention');
      }
      await this.audit.record(
        req,
        { action: 'retention.update', targetType: 'retention', before: settingsOf(changed.before), after: settingsOf(changed.after) },
        manager,
      );
      return changed.after;
    });
    return toRetentionView(after);
  }

  /** Runs the prune now unless a replica is running one (409). */
  async pruneNow(req: AppRequest): Promise<PruneResultView> {
    const settings = await this.repository.claim(false);
    if (!settings) throw new ConflictException('A prune is running already; its outcome shows here when it finishes');
    return this.run(req, settings);
  }

  /** Runs the daily prune if a day has passed since the last and no replica has claimed it; null when it did not run here. */
  async pruneIfDue(): Promise<PruneResultView | null> {
    const settings = await this.repository.claim(true);
    return settings ? this.run(null, settings) : null;
  }

  private async run(req: AppRequest | null, settings: RetentionSettingsEntity): Promise<PruneResultView> {
    const removed = {} as PruneCounts;
    let finished: RetentionSettingsEntity;
    try {
      for (const kind of PRUNED_KINDS) removed[kind] = await this.repository.prune(kind, settings);
      finished = await this.dataSource.transaction(async (manager) => {
        const row = await this.repository.finish(manager, removed);
        await this.audit.record(
          req,
          { action: 'retention.prune', targetType: 'retention', after: { removed, settings: settingsOf(settings) } },
          manager,
        );
        return row;
      });
    } catch (error) {
      // the next check, on any replica, tries again rather than wait for the claim to lapse
      await this.repository.release().catch(() => undefined);
      throw error;
    }
    const counts = PRUNED_KINDS.map((kind) => `${removed[kind]} ${kind}`).join(', ');
    this.logger.log(
      `retention prune ${req ? `by ${req.user!.email}` : '(daily)'} removed ${counts} (kept days: ${JSON.stringify(settingsOf(settings))})`,
    );
    return { prunedAt: finished.lastPrunedAt!.toISOString(), removed };
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { hydrate, type RawRow } from '../platform';
import { BreakerConfigEntity, type BreakerConfigFields } from './entities/breaker-config.entity';

/** What a change writes: every setting of the configuration, as it is to be (not its override or version). */
export type BreakerConfigSettings = Omit<BreakerConfigFields, 'override' | 'version'>;

/**
 * Every setting, in the order of updateSettings' columns: written as an object so that a setting added to
 * BreakerConfigSettings does not compile until it has its place here.
 */
const SETTINGS = Object.keys({
  id: true,
  name: true,
  type: true,
  failureThreshold: true,
  timeout: true,
  recoveryTime: true,
  successThreshold: true,
  maxConcurrentCalls: true,
  maxQueue: true,
  minimumCalls: true,
  slowCallDuration: true,
} satisfies Record<keyof BreakerConfigSettings, true>) as (keyof BreakerConfigSettings)[];

/** A configuration's settings alone, as updateSettings takes them. */
export function settingsOf(config: BreakerConfigSettings): BreakerConfigSettings {
  return Object.fromEntries(SETTINGS.map((key) => [key, config[key]])) as BreakerConfigSettings;
}

/** Writes to the breakers' configurations that TypeORM would make one statement per row. */
@Injectable()
export class BreakerConfigsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Sets each configuration's settings in one statement, raising each one's version; the rows as they now are.
   * The caller holds their locks, in its transaction.
   */
  async updateSettings(manager: EntityManager, configs: BreakerConfigSettings[]): Promise<BreakerConfigEntity[]> {
    const column = <K extends keyof BreakerConfigSettings>(key: K) => configs.map((config) => config[key]);
    const [rows] = (await manager.query(
      `UPDATE circuit_breaker_configs AS c SET
         name = u.name, type = u.type, failure_threshold = u.failure_threshold, timeout_ms = u.timeout_ms,
         recovery_time_ms = u.recovery_time_ms, success_threshold = u.success_threshold,
         max_concurrent_calls = u.max_concurrent_calls, max_queue = u.max_queue, minimum_calls = u.minimum_calls,
         slow_call_ms = u.slow_call_ms, version = c.version + 1, updated_at = now()
       FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[])
         AS u (id, name, type, failure_threshold, timeout_ms, recovery_time_ms, success_threshold, max_concurrent_calls, max_queue, minimum_calls, slow_call_ms)
       WHERE c.id = u.id
       RETURNING c.*`,
      SETTINGS.map(column),
    )) as [RawRow[], number];
    return rows.map((row) => hydrate(this.dataSource, BreakerConfigEntity, row));
  }
}

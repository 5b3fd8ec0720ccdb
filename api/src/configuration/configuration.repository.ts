import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The SQL of configuration imports that TypeORM has no words for. */
@Injectable()
export class ConfigurationRepository {
  /**
   * Holds imports to one at a time across every replica until the transaction ends, so two documents never plan against the
   * same hub and then both apply (a name created twice, a prune deleting what the other just wrote).
   */
  async lockImports(manager: EntityManager): Promise<void> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('configuration.import'))");
  }
}

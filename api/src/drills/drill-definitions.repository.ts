import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DrillDefinitionBreakerRef } from '@cbh/contracts';
import type { NamedBreaker } from './drill-definitions.breakers';

/** The breakers saved drills name, looked up by those names in one statement (SQL: whatever the letter case). */
@Injectable()
export class DrillDefinitionsRepository {
  /** The breakers of these names: the hub's by name, services' by service and name; names found nowhere are left out. */
  async named(manager: EntityManager, refs: readonly DrillDefinitionBreakerRef[]): Promise<NamedBreaker[]> {
    const hub = [...new Set(refs.flatMap((ref) => (typeof ref === 'string' ? [ref.toLowerCase()] : [])))];
    const agents = refs.flatMap((ref) => (typeof ref === 'string' ? [] : [ref]));
    if (hub.length === 0 && agents.length === 0) return [];
    return (await manager.query(
      `SELECT id, name, source, service FROM circuit_breaker_configs
       WHERE (source = 'hub' AND lower(name) = ANY ($1::text[]))
          OR (source <> 'hub' AND (lower(service), lower(name)) IN (SELECT lower(s), lower(n) FROM unnest($2::text[], $3::text[]) AS r(s, n)))`,
      [hub, agents.map((ref) => ref.service), agents.map((ref) => ref.name)],
    )) as NamedBreaker[];
  }
}

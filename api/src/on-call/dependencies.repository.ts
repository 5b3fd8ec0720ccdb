import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface NamedRow {
  id: number;
  name: string;
}

/**
 * Names of the breakers and domains dependencies point at: read by id in one statement each (the tables belong to
 * the contexts below; a name is all a dependency needs of them).
 */
@Injectable()
export class DependenciesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async breakers(ids: number[], manager: EntityManager = this.dataSource.manager): Promise<NamedRow[]> {
    if (ids.length === 0) return [];
    return manager.query('SELECT id, name FROM circuit_breaker_configs WHERE id = ANY($1::int[])', [ids]);
  }

  async domains(ids: number[], manager: EntityManager = this.dataSource.manager): Promise<NamedRow[]> {
    if (ids.length === 0) return [];
    return manager.query('SELECT id, domain AS name FROM domains WHERE id = ANY($1::int[])', [ids]);
  }
}

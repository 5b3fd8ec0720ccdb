import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/** A row as PostgreSQL returns it to raw SQL, keyed by column name. */
export type RawRow = Record<string, unknown>;

/**
 * The entity a raw row stands for, its columns read the way TypeORM reads them (names mapped, dates and
 * numbers converted): for the statements a repository writes in SQL with RETURNING *.
 */
export function hydrate<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, row: RawRow): T {
  const metadata = dataSource.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    column.setEntityValue(entity, dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
  }
  return entity;
}

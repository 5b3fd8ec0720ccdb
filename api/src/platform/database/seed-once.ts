import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Runs `seed` only when the entity's table is empty, under an exclusive table lock: replicas starting together
 * seed once, the others wait for the lock and then find the rows. TypeORM has no LOCK TABLE, hence the SQL here.
 */
export async function seedOnce<Entity extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<Entity>,
  seed: (manager: EntityManager) => Promise<void>,
): Promise<void> {
  await dataSource.transaction(async (manager) => {
    const { tableName } = manager.connection.getMetadata(entity);
    await manager.query(`LOCK TABLE ${manager.connection.driver.escape(tableName)} IN EXCLUSIVE MODE`);
    if ((await manager.count(entity)) === 0) await seed(manager);
  });
}

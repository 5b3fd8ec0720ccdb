import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Log channels, which write each notification to the API's log and are addressed by nothing (no URL, no recipients);
 * and the sample data a super admin may load into a hub and remove again: one row while it is loaded (claimed by
 * its primary key, so two replicas asked at once load it once) and one row per item it added, so that removing it
 * removes exactly those and nothing made since.
 */
export class LogChannelsAndSampleData1766900000000 implements MigrationInterface {
  name = 'LogChannelsAndSampleData1766900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE notification_channels
        DROP CONSTRAINT notification_channels_type_check,
        DROP CONSTRAINT notification_channels_check,
        ADD CONSTRAINT notification_channels_type_check CHECK (type IN ('email', 'webhook', 'slack', 'discord', 'log')),
        ADD CONSTRAINT notification_channels_check CHECK ((type IN ('email', 'log')) = (url_sealed IS NULL))`);
    await queryRunner.query(`
      CREATE TABLE sample_data (
        id smallint PRIMARY KEY CHECK (id = 1),
        loaded_by uuid REFERENCES users (id) ON DELETE SET NULL,
        loaded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE sample_data_items (
        kind text NOT NULL,
        item_id text NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (kind, item_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sample_data_items');
    await queryRunner.query('DROP TABLE sample_data');
    await queryRunner.query("DELETE FROM notification_channels WHERE type = 'log'");
    await queryRunner.query(`
      ALTER TABLE notification_channels
        DROP CONSTRAINT notification_channels_type_check,
        DROP CONSTRAINT notification_channels_check,
        ADD CONSTRAINT notification_channels_type_check CHECK (type IN ('email', 'webhook', 'slack', 'discord')),
        ADD CONSTRAINT notification_channels_check CHECK ((type = 'email') = (url_sealed IS NULL))`);
  }
}

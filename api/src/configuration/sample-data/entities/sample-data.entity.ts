import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ImportKind } from '@cbh/contracts';

/** The one row that exists while sample data is loaded: inserting it is the claim, so replicas asked at once load it once. */
@Entity('sample_data')
export class SampleDataEntity {
  @PrimaryColumn('smallint') id!: number;
  @Column('uuid', { name: 'loaded_by', nullable: true }) loadedBy!: string | null;
  @Column('timestamptz', { name: 'loaded_at', default: () => 'now()' }) loadedAt!: Date;
}

/** One item the sample data added (by its id, which a rename does not change): what removing it removes. */
@Entity('sample_data_items')
export class SampleDataItemEntity {
  @PrimaryColumn('text') kind!: ImportKind;
  @PrimaryColumn('text', { name: 'item_id' }) itemId!: string;
  @Column('text') name!: string;
}

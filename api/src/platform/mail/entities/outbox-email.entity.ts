import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every e-mail the API sends, written before sending; sentAt stays empty until the SMTP server took it. */
@Entity('outbox_emails')
export class OutboxEmailEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('text', { name: 'to_address' }) toAddress!: string;
  @Column('text') subject!: string;
  @Column('text') body!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'sent_at', nullable: true }) sentAt!: Date | null;
}

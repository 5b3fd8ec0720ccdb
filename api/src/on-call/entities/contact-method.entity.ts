import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ContactMethodType } from '@cbh/contracts';

/** A person's own channel an escalation reaches them on, besides their verified e-mail; its URL sealed. */
@Entity('contact_methods')
export class ContactMethodEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('text') type!: ContactMethodType;
  @Column('text') label!: string;
  @Column('text', { name: 'url_sealed' }) urlSealed!: string;
  @Column('text', { name: 'url_host' }) urlHost!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

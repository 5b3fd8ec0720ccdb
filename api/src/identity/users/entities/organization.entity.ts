import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { OrganizationView } from '@cbh/contracts';

@Entity('organizations')
export class OrganizationEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'invitation_domains', array: true, default: () => "'{}'" }) invitationDomains!: string[];
  @Column('integer', { name: 'max_token_days', default: 365 }) maxTokenDays!: number;
  @Column('integer', { name: 'idle_session_minutes', nullable: true }) idleSessionMinutes!: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

export function toOrganizationView(organization: OrganizationEntity): OrganizationView {
  return {
    id: organization.id,
    name: organization.name,
    invitationDomains: organization.invitationDomains,
    maxTokenDays: organization.maxTokenDays,
    idleSessionMinutes: organization.idleSessionMinutes,
  };
}

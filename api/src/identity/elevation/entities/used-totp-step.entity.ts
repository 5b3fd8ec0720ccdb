import { Entity, PrimaryColumn } from 'typeorm';

/** A 30-second TOTP step an account already elevated with, so the same code never works twice. */
@Entity('used_totp_steps')
export class UsedTotpStepEntity {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId!: string;

  /** bigint, which the driver returns as a string. */
  @PrimaryColumn('bigint', { name: 'time_step' }) timeStep!: string;
}

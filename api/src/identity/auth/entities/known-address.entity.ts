import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An address (an IPv4 address, or an IPv6 /64) an account signed in from, under a hash of the address and the
 * e-mail: failures against the e-mail from elsewhere do not hold sign-ins from here back.
 */
@Entity('sign_in_known_addresses')
export class KnownAddressEntity {
  @PrimaryColumn('text', { name: 'key_hash' }) keyHash!: string;
  @Column('timestamptz', { name: 'signed_in_at', default: () => 'now()' }) signedInAt!: Date;
}

import { AuditEntryEntity } from './audit/entities/audit-entry.entity';
import { SessionEntity } from './auth/entities/session.entity';
import { SignInAttemptEntity } from './auth/entities/sign-in-attempt.entity';
import { KnownAddressEntity } from './auth/entities/known-address.entity';
import { ElevationAttemptEntity } from './elevation/entities/elevation-attempt.entity';
import { ElevationTokenEntity } from './elevation/entities/elevation-token.entity';
import { UsedTotpStepEntity } from './elevation/entities/used-totp-step.entity';
import { InvitationEntity } from './users/entities/invitation.entity';
import { OrganizationEntity } from './users/entities/organization.entity';
import { UserEntity } from './users/entities/user.entity';
import { UserIdentityEntity } from './users/entities/user-identity.entity';
import { ApiTokenEntity } from './tokens/entities/api-token.entity';
import { ApiTokenUsageEntity } from './tokens/entities/api-token-usage.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const IDENTITY_ENTITIES = [
  AuditEntryEntity,
  SessionEntity,
  SignInAttemptEntity,
  KnownAddressEntity,
  ElevationAttemptEntity,
  ElevationTokenEntity,
  UsedTotpStepEntity,
  InvitationEntity,
  OrganizationEntity,
  UserEntity,
  UserIdentityEntity,
  ApiTokenEntity,
  ApiTokenUsageEntity,
];

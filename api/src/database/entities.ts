import { AuditEntryEntity } from '../audit/entities/audit-entry.entity';
import { BreakerConfigEntity } from '../breakers/entities/breaker-config.entity';
import { ServiceEntity } from '../services/entities/service.entity';
import { InvitationEntity } from '../users/entities/invitation.entity';
import { OrganizationEntity } from '../users/entities/organization.entity';
import { UserEntity } from '../users/entities/user.entity';

export const ENTITIES = [UserEntity, OrganizationEntity, InvitationEntity, AuditEntryEntity, BreakerConfigEntity, ServiceEntity];

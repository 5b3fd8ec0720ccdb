import { AuditEntryEntity } from './identity/audit/entities/audit-entry.entity';
import { SessionEntity } from './identity/auth/entities/session.entity';
import { SignInAttemptEntity } from './identity/auth/entities/sign-in-attempt.entity';
import { KnownAddressEntity } from './identity/auth/entities/known-address.entity';
import { BreakerConfigEntity } from './breakers/entities/breaker-config.entity';
import { ScrapeTargetEntity } from './breakers/scrape/entities/scrape-target.entity';
import { RemoteReleaseEntity } from './releases/entities/remote-release.entity';
import { RemoteVersionEntity } from './releases/entities/remote-version.entity';
import { BreakerTransitionEntity } from './breakers/entities/breaker-transition.entity';
import { DnsRecordEntity } from './domains/entities/dns-record.entity';
import { DomainAlertEntity } from './domains/entities/domain-alert.entity';
import { DomainCheckBucketEntity } from './domains/entities/domain-check-bucket.entity';
import { DomainCheckResultEntity } from './domains/entities/domain-check-result.entity';
import { DomainMonitoringEntity } from './domains/entities/domain-monitoring.entity';
import { DomainVerificationEntity } from './domains/entities/domain-verification.entity';
import { DomainEntity } from './domains/entities/domain.entity';
import { SslCertificateEntity } from './domains/entities/ssl-certificate.entity';
import { SubdomainEntity } from './domains/entities/subdomain.entity';
import { ElevationAttemptEntity } from './identity/elevation/entities/elevation-attempt.entity';
import { ElevationTokenEntity } from './identity/elevation/entities/elevation-token.entity';
import { UsedTotpStepEntity } from './identity/elevation/entities/used-totp-step.entity';
import { TestSessionEntity } from './breakers/load-tests/entities/test-session.entity';
import { OutboxEmailEntity } from './platform/mail/entities/outbox-email.entity';
import { MetricBucketEntity } from './breakers/metrics/entities/metric-bucket.entity';
import { ApiInstanceEntity } from './platform/replicas/entities/api-instance.entity';
import { ServiceEntity } from './breakers/services/entities/service.entity';
import { InvitationEntity } from './identity/users/entities/invitation.entity';
import { OrganizationEntity } from './identity/users/entities/organization.entity';
import { UserEntity } from './identity/users/entities/user.entity';
import { UserIdentityEntity } from './identity/users/entities/user-identity.entity';
import { ApiTokenEntity } from './identity/tokens/entities/api-token.entity';
import { ApiTokenUsageEntity } from './identity/tokens/entities/api-token-usage.entity';
import { RetentionSettingsEntity } from './retention/entities/retention-settings.entity';
import { NotificationChannelEntity } from './notifications/entities/notification-channel.entity';
import { NotificationRuleChannelEntity, NotificationRuleEntity } from './notifications/entities/notification-rule.entity';
import { MaintenanceWindowEntity } from './notifications/entities/maintenance-window.entity';
import { NotificationDeliveryEntity } from './notifications/entities/notification-delivery.entity';

export const ENTITIES = [
  UserEntity,
  UserIdentityEntity,
  OrganizationEntity,
  InvitationEntity,
  SessionEntity,
  SignInAttemptEntity,
  KnownAddressEntity,
  OutboxEmailEntity,
  ElevationAttemptEntity,
  UsedTotpStepEntity,
  ElevationTokenEntity,
  AuditEntryEntity,
  BreakerConfigEntity,
  BreakerTransitionEntity,
  ServiceEntity,
  TestSessionEntity,
  MetricBucketEntity,
  ApiInstanceEntity,
  DomainEntity,
  DomainVerificationEntity,
  SslCertificateEntity,
  DnsRecordEntity,
  SubdomainEntity,
  DomainMonitoringEntity,
  DomainCheckResultEntity,
  DomainCheckBucketEntity,
  DomainAlertEntity,
  ApiTokenEntity,
  ApiTokenUsageEntity,
  RetentionSettingsEntity,
  NotificationChannelEntity,
  NotificationRuleEntity,
  NotificationRuleChannelEntity,
  MaintenanceWindowEntity,
  NotificationDeliveryEntity,
  ScrapeTargetEntity,
  RemoteVersionEntity,
  RemoteReleaseEntity,
];

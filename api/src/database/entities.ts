import { AuditEntryEntity } from '../audit/entities/audit-entry.entity';
import { SessionEntity } from '../auth/entities/session.entity';
import { SignInAttemptEntity } from '../auth/entities/sign-in-attempt.entity';
import { KnownAddressEntity } from '../auth/entities/known-address.entity';
import { BreakerConfigEntity } from '../breakers/entities/breaker-config.entity';
import { ScrapeTargetEntity } from '../scrape/entities/scrape-target.entity';
import { RemoteReleaseEntity } from '../releases/entities/remote-release.entity';
import { RemoteVersionEntity } from '../releases/entities/remote-version.entity';
import { BreakerTransitionEntity } from '../breakers/entities/breaker-transition.entity';
import { DnsRecordEntity } from '../domains/entities/dns-record.entity';
import { DomainAlertEntity } from '../domains/entities/domain-alert.entity';
import { DomainCheckBucketEntity } from '../domains/entities/domain-check-bucket.entity';
import { DomainCheckResultEntity } from '../domains/entities/domain-check-result.entity';
import { DomainMonitoringEntity } from '../domains/entities/domain-monitoring.entity';
import { DomainVerificationEntity } from '../domains/entities/domain-verification.entity';
import { DomainEntity } from '../domains/entities/domain.entity';
import { SslCertificateEntity } from '../domains/entities/ssl-certificate.entity';
import { SubdomainEntity } from '../domains/entities/subdomain.entity';
import { ElevationAttemptEntity } from '../elevation/entities/elevation-attempt.entity';
import { ElevationTokenEntity } from '../elevation/entities/elevation-token.entity';
import { UsedTotpStepEntity } from '../elevation/entities/used-totp-step.entity';
import { TestSessionEntity } from '../load-tests/entities/test-session.entity';
import { OutboxEmailEntity } from '../mail/entities/outbox-email.entity';
import { MetricBucketEntity } from '../metrics/entities/metric-bucket.entity';
import { ApiInstanceEntity } from '../replicas/entities/api-instance.entity';
import { ServiceEntity } from '../services/entities/service.entity';
import { InvitationEntity } from '../users/entities/invitation.entity';
import { OrganizationEntity } from '../users/entities/organization.entity';
import { UserEntity } from '../users/entities/user.entity';
import { UserIdentityEntity } from '../users/entities/user-identity.entity';
import { ApiTokenEntity } from '../tokens/entities/api-token.entity';
import { ApiTokenUsageEntity } from '../tokens/entities/api-token-usage.entity';
import { RetentionSettingsEntity } from '../retention/entities/retention-settings.entity';
import { NotificationChannelEntity } from '../notifications/entities/notification-channel.entity';
import { NotificationRuleChannelEntity, NotificationRuleEntity } from '../notifications/entities/notification-rule.entity';
import { MaintenanceWindowEntity } from '../notifications/entities/maintenance-window.entity';
import { NotificationDeliveryEntity } from '../notifications/entities/notification-delivery.entity';

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

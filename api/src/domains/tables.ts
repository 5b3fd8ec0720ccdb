import { DnsRecordEntity } from './entities/dns-record.entity';
import { DomainAlertEntity } from './entities/domain-alert.entity';
import { DomainCheckBucketEntity } from './entities/domain-check-bucket.entity';
import { DomainCheckResultEntity } from './entities/domain-check-result.entity';
import { DomainMonitoringEntity } from './entities/domain-monitoring.entity';
import { DomainVerificationEntity } from './entities/domain-verification.entity';
import { DomainEntity } from './entities/domain.entity';
import { SslCertificateEntity } from './entities/ssl-certificate.entity';
import { SubdomainEntity } from './entities/subdomain.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const DOMAIN_ENTITIES = [
  DnsRecordEntity,
  DomainAlertEntity,
  DomainCheckBucketEntity,
  DomainCheckResultEntity,
  DomainMonitoringEntity,
  DomainVerificationEntity,
  DomainEntity,
  SslCertificateEntity,
  SubdomainEntity,
];

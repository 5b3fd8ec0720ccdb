/** The domains context's public face: what other contexts and the composition root may use (see README.md). */
export { DOMAIN_ENTITIES } from './tables';
export { DomainsModule } from './domains.module';
export { DomainsService } from './domains.service';
export type { DomainEntity } from './entities/domain.entity';
export type { SslCertificateEntity } from './entities/ssl-certificate.entity';
export { DOMAIN_HISTORY } from './history';
export type { DomainHealth } from './domains.repository';

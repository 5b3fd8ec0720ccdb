import { Module } from '@nestjs/common';
import { ReplicasModule } from '../platform';
import { DomainsController } from './domains.controller';
import { DomainAlertsRepository } from './domain-alerts.repository';
import { DomainChecksRepository } from './domain-checks.repository';
import { DomainFindingsRepository } from './domain-findings.repository';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { DomainCheckRunner } from './scheduling/domain-check-runner.service';

/** Domain monitoring: its data, REST API and the rounds of checks every replica takes its share of. */
@Module({
  imports: [ReplicasModule],
  controllers: [DomainsController],
  providers: [
    DomainsService,
    DomainsRepository,
    DomainFindingsRepository,
    DomainChecksRepository,
    DomainAlertsRepository,
    DomainCheckRunner,
  ],
  exports: [DomainsService, DomainsRepository],
})
export class DomainsModule {}

import { Module } from '@nestjs/common';
import { BreakersModule } from '../../breakers';
import { DomainsModule } from '../../domains';
import { BulkController } from './bulk.controller';

/** POST /api/circuit-breakers/bulk and POST /api/domains/bulk: the single actions, on many items at once. */
@Module({
  imports: [BreakersModule, DomainsModule],
  controllers: [BulkController],
})
export class BulkModule {}

import { Module } from '@nestjs/common';
import { ServiceAccountsController } from './service-accounts.controller';
import { ServiceAccountsRepository } from './service-accounts.repository';
import { ServiceAccountsService } from './service-accounts.service';

@Module({
  controllers: [ServiceAccountsController],
  providers: [ServiceAccountsRepository, ServiceAccountsService],
})
export class ServiceAccountsModule {}

import { Global, Module } from '@nestjs/common';
import { OrganizationController } from './organization.controller';
import { OrganizationService } from './organization.service';
import { OrganizationSettings } from './organization-settings.service';

/** The organisation's settings. Global because invitations, tokens and sessions all apply them. */
@Global()
@Module({
  controllers: [OrganizationController],
  providers: [OrganizationService, OrganizationSettings],
  exports: [OrganizationSettings],
})
export class OrganizationModule {}

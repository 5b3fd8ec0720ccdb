import { Body, Controller, Get, Param, Patch, Req } from '@nestjs/common';
import type { z } from 'zod';
import { organizationIdSchema, updateOrganizationSchema } from '@cbh/contracts';
import { RequireAnyPermission, RequirePermission, ZodPipe } from '../../platform';
import type { AppRequest } from '../auth/session-user';
import { OrganizationService } from './organization.service';

@Controller('organizations')
export class OrganizationController {
  constructor(private readonly organizations: OrganizationService) {}

  /** A list, as the API has always answered it; one organisation in practice. User managers read it too. */
  @Get()
  @RequireAnyPermission('user_management', 'organization_admin')
  list() {
    return this.organizations.list();
  }

  @Patch(':id')
  @RequirePermission('organization_admin')
  update(
    @Req() req: AppRequest,
    @Param('id', new ZodPipe(organizationIdSchema, 'id')) id: string,
    @Body(new ZodPipe(updateOrganizationSchema)) body: z.infer<typeof updateOrganizationSchema>,
  ) {
    return this.organizations.update(req, id, body);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Req } from '@nestjs/common';
import { createEscalationPolicySchema, updateEscalationPolicySchema, type CreateEscalationPolicy } from '@cbh/contracts';
import { RequireAnyPermission, RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { EscalationPoliciesService } from './escalation-policies.service';

const id = new ParseUUIDPipe({ version: '4' });

/** Escalation policies are an operator's routing, as notification rules are: circuit_breaker_admin keeps them. */
@Controller('escalation-policies')
export class EscalationPoliciesController {
  constructor(private readonly policies: EscalationPoliciesService) {}

  @Get()
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  list() {
    return this.policies.list();
  }

  @Post()
  @RequirePermission('circuit_breaker_admin')
  create(@Req() req: AppRequest, @Body(new ZodPipe(createEscalationPolicySchema)) body: CreateEscalationPolicy) {
    return this.policies.create(req, body);
  }

  @Get(':id')
  @RequireAnyPermission('circuit_breaker_admin', 'circuit_breaker_operate')
  one(@Param('id', id) policyId: string) {
    return this.policies.one(policyId);
  }

  @Patch(':id')
  @RequirePermission('circuit_breaker_admin')
  update(
    @Req() req: AppRequest,
    @Param('id', id) policyId: string,
    @Body(new ZodPipe(updateEscalationPolicySchema)) body: Partial<CreateEscalationPolicy>,
  ) {
    return this.policies.update(req, policyId, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('circuit_breaker_admin')
  async remove(@Req() req: AppRequest, @Param('id', id) policyId: string) {
    await this.policies.remove(req, policyId);
  }
}

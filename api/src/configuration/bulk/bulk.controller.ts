import { Body, Controller, HttpCode, HttpException, Post, Req } from '@nestjs/common';
import {
  BREAKER_BULK_PERMISSIONS,
  breakerBulkSchema,
  DOMAIN_BULK_PERMISSIONS,
  domainBulkSchema,
  type BreakerBulkRequest,
  type BulkItemOutcome,
  type BulkResult,
  type DomainBulkRequest,
  type Permission,
} from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../../platform';
import { type AppRequest, requirePermission } from '../../identity';
import { BreakerControl, BreakersService } from '../../breakers';
import { DomainsService } from '../../domains';

/**
 * Many-at-once changes: bulk_operations to send many, and for the items the permission the single action needs.
 * Each item succeeds or fails on its own, with the status its single route would answer, and the answer lists them
 * in the order asked. The single actions' service methods do the work, on all the items at once.
 */
@Controller()
@RequirePermission('bulk_operations')
export class BulkController {
  constructor(
    private readonly breakers: BreakersService,
    private readonly control: BreakerControl,
    private readonly domains: DomainsService,
  ) {}

  @Post('circuit-breakers/bulk')
  @HttpCode(200)
  async breakersBulk(
    @Req() req: AppRequest,
    @Body(new ZodPipe(breakerBulkSchema)) { action, ids }: BreakerBulkRequest,
  ): Promise<BulkResult> {
    requireItemPermission(req, BREAKER_BULK_PERMISSIONS[action]);
    if (action === 'delete') return outcomes(ids, await this.breakers.removeMany(req, ids), 204);
    return outcomes(ids, await this.control.manualMany(req, ids, action), 200);
  }

  @Post('domains/bulk')
  @HttpCode(200)
  async domainsBulk(@Req() req: AppRequest, @Body(new ZodPipe(domainBulkSchema)) { action, ids }: DomainBulkRequest): Promise<BulkResult> {
    requireItemPermission(req, DOMAIN_BULK_PERMISSIONS[action]);
    if (action === 'delete') return outcomes(ids, await this.domains.removeMany(req, ids), 204);
    // 202 as the single route: the look-up itself happens in each domain's next round, which is due at once
    return outcomes(ids, await this.domains.verifyMany(req, ids), 202);
  }
}

/** The whole request is refused when the items' own action is not the caller's, as the single route would refuse it. */
const requireItemPermission = (req: AppRequest, permission: Permission) => requirePermission(req, permission);

/** Each item's outcome in the order asked: the single route's success status, or its refusal's status and message. */
function outcomes(ids: readonly number[], results: readonly unknown[], okStatus: number): BulkResult {
  return {
    results: ids.map((id, index): BulkItemOutcome => {
      const result = results[index];
      if (!(result instanceof HttpException)) return { id, ok: true, status: okStatus };
      return { id, ok: false, status: result.getStatus(), message: result.message };
    }),
  };
}

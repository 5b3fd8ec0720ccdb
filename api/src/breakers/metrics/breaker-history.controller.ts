import { Controller, Get, Param, Query } from '@nestjs/common';
import { breakerIdSchema, historyQuerySchema, type BreakerHistory, type HistoryQuery } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../../platform';
import { BreakerHistoryService } from './breaker-history.service';

/** A breaker's past, beside its configuration's routes (BreakersController) under /api/circuit-breakers/{id}. */
@Controller('circuit-breakers')
export class BreakerHistoryController {
  constructor(private readonly history: BreakerHistoryService) {}

  /** Calls/s and error % in at most HISTORY_MAX_POINTS steps over the range, and the journal's moves in it. */
  @Get(':id/history')
  @RequirePermission('circuit_breaker_view')
  of(
    @Param('id', new ZodPipe(breakerIdSchema, 'id')) id: number,
    @Query(new ZodPipe(historyQuerySchema)) query: HistoryQuery,
  ): Promise<BreakerHistory> {
    return this.history.of(id, query.range);
  }
}

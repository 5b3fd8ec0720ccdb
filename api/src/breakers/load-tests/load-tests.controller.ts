import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { z } from 'zod';
import { startTestSessionSchema, testSessionIdSchema, testSessionQuerySchema } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../../platform';
import type { AppRequest } from '../../identity';
import { LoadTestsService } from './load-tests.service';

@Controller('test-sessions')
export class LoadTestsController {
  constructor(private readonly loadTests: LoadTestsService) {}

  /** The newest sessions (100), or those of one breaker (50): its load-test history. */
  @Get()
  @RequirePermission('circuit_breaker_view')
  list(@Query(new ZodPipe(testSessionQuerySchema)) { status, configId }: z.infer<typeof testSessionQuerySchema>) {
    return this.loadTests.list(status, configId);
  }

  @Post()
  @RequirePermission('circuit_breaker_operate')
  start(@Req() req: AppRequest, @Body(new ZodPipe(startTestSessionSchema)) body: z.infer<typeof startTestSessionSchema>) {
    return this.loadTests.start(req, body);
  }

  @Post(':id/stop')
  @RequirePermission('circuit_breaker_operate')
  @HttpCode(200)
  stop(@Req() req: AppRequest, @Param('id', new ZodPipe(testSessionIdSchema, 'id')) id: number) {
    return this.loadTests.stop(req, id);
  }
}

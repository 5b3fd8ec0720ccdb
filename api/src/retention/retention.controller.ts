import { Body, Controller, Get, HttpCode, Patch, Post, Req } from '@nestjs/common';
import type { z } from 'zod';
import { pruneRetentionSchema, updateRetentionSchema } from '@cbh/contracts';
import { RequirePermission, ZodPipe } from '../platform';
import type { AppRequest } from '../identity';
import { RetentionService } from './retention.service';

/** How long each kind of history is kept, and the prune that applies it: system_admin's. */
@Controller('system/retention')
@RequirePermission('system_admin')
export class RetentionController {
  constructor(private readonly retention: RetentionService) {}

  @Get()
  view() {
    return this.retention.view();
  }

  @Patch()
  update(@Req() req: AppRequest, @Body(new ZodPipe(updateRetentionSchema)) body: z.infer<typeof updateRetentionSchema>) {
    return this.retention.update(req, body);
  }

  @Post('prune')
  @HttpCode(200)
  // the empty body is validated too, so that settings sent here by mistake are refused rather than ignored
  prune(@Req() req: AppRequest, @Body(new ZodPipe(pruneRetentionSchema)) _body: z.infer<typeof pruneRetentionSchema>) {
    return this.retention.pruneNow(req);
  }
}

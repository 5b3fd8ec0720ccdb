import { Controller, Delete, Get, HttpCode, Post, Req } from '@nestjs/common';
import type { SampleDataView } from '@cbh/contracts';
import { SessionOnly, SuperAdmin } from '../../platform';
import type { AppRequest } from '../../identity';
import { SampleDataService } from './sample-data.service';

/** The sample data of a hub being tried out: a super admin's, from a session (a screen offers it), refused in production. */
@Controller('sample-data')
@SuperAdmin()
@SessionOnly('Loading or removing sample data')
export class SampleDataController {
  constructor(private readonly sampleData: SampleDataService) {}

  /** Whether it is loaded, what it added that is still there, and why it may not be loaded here. */
  @Get()
  view(): Promise<SampleDataView> {
    return this.sampleData.view();
  }

  /** Adds it (403 in production, 409 when loaded, or when the hub has an item of one of its names). */
  @Post()
  @HttpCode(201)
  load(@Req() req: AppRequest): Promise<SampleDataView> {
    return this.sampleData.load(req);
  }

  /** Removes exactly what it added (404 when none is loaded; 409 naming what could not go yet). */
  @Delete()
  remove(@Req() req: AppRequest): Promise<SampleDataView> {
    return this.sampleData.remove(req);
  }
}

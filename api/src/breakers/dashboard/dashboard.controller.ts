import { Controller, Get, Header } from '@nestjs/common';
import { RequirePermission } from '../../platform';
import { DashboardHealthService } from './dashboard-health.service';
import { DashboardService } from './dashboard.service';

@Controller('dashboard')
@RequirePermission('dashboard_view')
export class DashboardController {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly healthOverview: DashboardHealthService,
  ) {}

  @Get('stats')
  @Header('Cache-Control', 'private, max-age=30')
  stats() {
    return this.dashboard.stats();
  }

  @Get('activity')
  @Header('Cache-Control', 'private, max-age=30')
  activity() {
    return this.dashboard.activity();
  }

  /**
   * Breakers open and half-open now, the last moves and the openings of the last day: it names breakers and their
   * moves, as their own pages do, so it asks what those pages ask (circuit_breaker_view). Read again at each move.
   */
  @Get('health')
  @RequirePermission('circuit_breaker_view')
  @Header('Cache-Control', 'private, no-cache')
  health() {
    return this.healthOverview.health();
  }
}

import { Controller, Get, Header } from '@nestjs/common';
import { RequirePermission } from '../../platform';
import { DashboardService } from './dashboard.service';

@Controller('dashboard')
@RequirePermission('dashboard_view')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

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
}

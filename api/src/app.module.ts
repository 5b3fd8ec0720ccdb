import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditModule } from './identity/audit/audit.module';
import { AuthModule } from './identity/auth/auth.module';
import { BreakersModule } from './breakers/breakers.module';
import { BulkModule } from './configuration/bulk/bulk.module';
import { ConfigurationModule } from './configuration/configuration.module';
import { PeriodicWork } from './platform/common/periodic-work';
import { APP_CONFIG, type AppConfig } from './platform/config/config';
import { DashboardModule } from './breakers/dashboard/dashboard.module';
import { DocsModule } from './platform/docs/docs.module';
import { DomainsModule } from './domains/domains.module';
import { ElevationModule } from './identity/elevation/elevation.module';
import { HealthModule } from './platform/health/health.module';
import { LoadTestsModule } from './breakers/load-tests/load-tests.module';
import { FleetModule } from './breakers/fleet/fleet.module';
import { ReleasesModule } from './releases/releases.module';
import { HubMetricsModule } from './platform/observability/hub-metrics';
import { MetricsModule } from './breakers/metrics/metrics.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OrganizationModule } from './identity/organization/organization.module';
import { BusModule } from './platform/bus/bus.module';
import { RealtimeModule } from './breakers/realtime/realtime.module';
import { RetentionModule } from './retention/retention.module';
import { ServiceAccountsModule } from './identity/service-accounts/service-accounts.module';
import { ServicesModule } from './breakers/services/services.module';
import { SessionsModule } from './identity/sessions/sessions.module';
import { TokensModule } from './identity/tokens/tokens.module';
import { UsersModule } from './identity/users/users.module';

@Module({})
export class AppModule {
  /** The API's modules over an already migrated DataSource. */
  static register(config: AppConfig, dataSource: DataSource): DynamicModule {
    return {
      module: AppModule,
      // global so that every module can inject APP_CONFIG and the DataSource's repositories
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSource.options,
          dataSourceFactory: async () => dataSource,
        }),
        HubMetricsModule,
        AuditModule,
        BusModule,
        AuthModule,
        TokensModule,
        OrganizationModule,
        HealthModule,
        UsersModule,
        ServiceAccountsModule,
        SessionsModule,
        ElevationModule,
        BreakersModule,
        FleetModule,
        ReleasesModule,
        ServicesModule,
        ConfigurationModule,
        MetricsModule,
        LoadTestsModule,
        DashboardModule,
        DomainsModule,
        BulkModule,
        RetentionModule,
        NotificationsModule,
        RealtimeModule,
        DocsModule,
      ],
      // PeriodicWork: every replica's periodic tasks in one place, stopped first and together at shutdown
      providers: [{ provide: APP_CONFIG, useValue: config }, PeriodicWork],
      exports: [APP_CONFIG, PeriodicWork],
    };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BreakersModule } from './breakers/breakers.module';
import { BulkModule } from './bulk/bulk.module';
import { ConfigurationModule } from './configuration/configuration.module';
import { PeriodicWork } from './common/periodic-work';
import { APP_CONFIG, type AppConfig } from './config/config';
import { DashboardModule } from './dashboard/dashboard.module';
import { DocsModule } from './docs/docs.module';
import { DomainsModule } from './domains/domains.module';
import { ElevationModule } from './elevation/elevation.module';
import { HealthModule } from './health/health.module';
import { LoadTestsModule } from './load-tests/load-tests.module';
import { FleetModule } from './fleet/fleet.module';
import { ReleasesModule } from './releases/releases.module';
import { HubMetricsModule } from './metrics/hub-metrics';
import { MetricsModule } from './metrics/metrics.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OrganizationModule } from './organization/organization.module';
import { BusModule } from './bus/bus.module';
import { RealtimeModule } from './realtime/realtime.module';
import { RetentionModule } from './retention/retention.module';
import { ServiceAccountsModule } from './service-accounts/service-accounts.module';
import { ServicesModule } from './services/services.module';
import { SessionsModule } from './sessions/sessions.module';
import { TokensModule } from './tokens/tokens.module';
import { UsersModule } from './users/users.module';

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

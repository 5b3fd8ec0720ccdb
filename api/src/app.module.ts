import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditModule } from './identity';
import { AuthModule } from './identity';
import { BreakersModule } from './breakers';
import { BulkModule } from './configuration';
import { ConfigurationModule } from './configuration';
import { PeriodicWork } from './platform';
import { APP_CONFIG, type AppConfig } from './platform';
import { DashboardModule } from './breakers';
import { DocsModule } from './platform';
import { DomainsModule } from './domains';
import { ElevationModule } from './identity';
import { HealthModule } from './platform';
import { LoadTestsModule } from './breakers';
import { FleetModule } from './breakers';
import { ReleasesModule } from './releases';
import { HubMetricsModule } from './platform';
import { MetricsModule } from './breakers';
import { NotificationsModule } from './notifications';
import { OrganizationModule } from './identity';
import { BusModule } from './platform';
import { RealtimeModule } from './breakers';
import { RetentionModule } from './retention';
import { ServiceAccountsModule } from './identity';
import { ServicesModule } from './breakers';
import { SessionsModule } from './identity';
import { TokensModule } from './identity';
import { UsersModule } from './identity';

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

import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  AuditModule,
  AuthModule,
  ElevationModule,
  OrganizationModule,
  ServiceAccountsModule,
  SessionsModule,
  TokensModule,
  UsersModule,
} from './identity';
import { BreakersModule, DashboardModule, FleetModule, LoadTestsModule, MetricsModule, RealtimeModule, ServicesModule } from './breakers';
import { BulkModule, ConfigurationModule } from './configuration';
import { APP_CONFIG, type AppConfig, BusModule, DocsModule, HealthModule, HubMetricsModule, PeriodicWork, SqlRunner } from './platform';
import { DomainsModule } from './domains';
import { ReleasesModule } from './releases';
import { NotificationsModule } from './notifications';
import { RetentionModule } from './retention';
import { StatusModule } from './status';
import { OnCallModule } from './on-call';
import { SlosModule } from './slos';
import { DrillsModule } from './drills';

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
        StatusModule,
        OnCallModule,
        SlosModule,
        DrillsModule,
        RealtimeModule,
        DocsModule,
      ],
      // PeriodicWork: every replica's periodic tasks in one place, stopped first and together at shutdown;
      // SqlRunner: the repositories' hand-written SQL
      providers: [{ provide: APP_CONFIG, useValue: config }, PeriodicWork, SqlRunner],
      exports: [APP_CONFIG, PeriodicWork, SqlRunner],
    };
  }
}

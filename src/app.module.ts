import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiExceptionFilter } from './common/http-exception.filter';
import { EnvelopeInterceptor } from './common/envelope.interceptor';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { APP_CONFIG, AppConfig } from './config/app.config';
import { dataSourceOptions, openDataSource, replicatedDataSourceOptions } from './database/data-source';
import { ReadDatabase } from './database/read-database';
import { SeedModule } from './database/seed/seed.module';
import { DATABASE_URL } from './database/tokens';
import { AuthModule } from './modules/auth/auth.module';
import { RateLimitModule } from './modules/rate-limit/rate-limit.module';
import { HealthModule } from './modules/health/health.module';
import { ObservabilityModule } from './modules/observability/observability.module';
import { QueueModule } from './modules/queue/queue.module';
import { UsersModule } from './modules/users/users.module';
import { AgentGroupsModule } from './modules/agent-groups/agent-groups.module';
import { SipEndpointsModule } from './modules/sip-endpoints/sip-endpoints.module';
import { CallScenariosModule } from './modules/call-scenarios/call-scenarios.module';
import { CallAttemptGroupsModule } from './modules/call-attempt-groups/call-attempt-groups.module';
import { CustomFieldsModule } from './modules/custom-fields/custom-fields.module';
import { OrdersModule } from './modules/orders/orders.module';
import { LeadsModule } from './modules/leads/leads.module';
import { CallsModule } from './modules/calls/calls.module';
import { NotificationsModule } from './modules/notifications/notifications.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
}

@Module({})
export class AppModule {
  static register({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(databaseUrl, replicatedDataSourceOptions(databaseUrl, config.databaseReplicaUrls)),
            autoLoadEntities: true,
            extra: { max: config.dbPoolSize, connectionTimeoutMillis: 3000 },
          }),
          dataSourceFactory: (options) => openDataSource(options!),
        }),
        SeedModule,
        IdempotencyModule,
        QueueModule,
        RateLimitModule,
        AuthModule,
        HealthModule,
        ObservabilityModule,
        UsersModule,
        AgentGroupsModule,
        SipEndpointsModule,
        CallScenariosModule,
        CallAttemptGroupsModule,
        CustomFieldsModule,
        OrdersModule,
        LeadsModule,
        CallsModule,
        NotificationsModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATABASE_URL, useValue: databaseUrl },
        ReadDatabase,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
      exports: [APP_CONFIG, DATABASE_URL, ReadDatabase],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { ApiExceptionFilter } from './common/http-exception.filter';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { APP_CONFIG, AppConfig } from './config/app.config';
import { dataSourceOptions } from './assembly/data-source';
import { guardNewConnections, openDataSource, replicatedDataSourceOptions } from './database/open-data-source';
import { ReadDatabase } from './database/read-database';
import { SeedModule } from './database/seed/seed.module';
import { DATABASE_URL } from './database/tokens';
import { AuthModule } from './modules/auth/auth.module';
import { RateLimitModule } from './modules/rate-limit/rate-limit.module';
import { HealthModule } from './modules/health/health.module';
import { ObservabilityModule } from './modules/observability/observability.module';
import { loggerParams } from './modules/observability/logging';
import { QueueModule } from './modules/queue/queue.module';
import { WORKER_DATA_SOURCE } from './modules/queue/persistence/worker-database';
import { UsersModule } from './modules/users/users.module';
import { AgentGroupsModule } from './modules/agent-groups/agent-groups.module';
import { SipEndpointsModule } from './modules/sip-endpoints/sip-endpoints.module';
import { CallScenariosModule } from './modules/call-scenarios/call-scenarios.module';
import { CallAttemptGroupsModule } from './modules/call-attempt-groups/call-attempt-groups.module';
import { CustomFieldsModule } from './modules/custom-fields/custom-fields.module';
import { ClientsModule } from './modules/clients/clients.module';
import { OrdersModule } from './modules/orders/orders.module';
import { LeadsModule } from './modules/leads/leads.module';
import { CallsModule } from './modules/calls/calls.module';
import { OrderStatsModule } from './modules/order-stats/order-stats.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { EventsModule } from './modules/events/events.module';
import { DncModule } from './modules/dnc/dnc.module';
import { DialerModule } from './modules/dialer/dialer.module';

/** How long an HTTP request waits for a pool connection before it is answered 503. */
const HTTP_CONNECT_WAIT_MS = 3000;
/**
 * Jobs beyond the worker pool's size wait here for a connection (the pool is their concurrency
 * bound); each wait is bounded by the other jobs' statements, and the batch by the job expiry.
 */
const WORKER_CONNECT_WAIT_MS = 30_000;

/**
 * pg pool settings of the service's own connections: size, connection wait, and server-side
 * bounds on each statement and each lock wait (sent as startup parameters, so every connection
 * has them). Migrations run on their own data source, without these bounds.
 */
function poolOptions(config: AppConfig, max: number, connectionTimeoutMillis: number): Record<string, number | undefined> {
  return {
    max,
    connectionTimeoutMillis,
    statement_timeout: config.dbStatementTimeoutMs || undefined,
    lock_timeout: config.dbLockTimeoutMs || undefined,
  };
}

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
        // pino-http binds each request's id to every line logged while serving it (see logging.ts).
        LoggerModule.forRoot(loggerParams(config)),
        // HTTP requests: a short wait for a connection, then 503 (a saturated pool must not queue requests for ever).
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(databaseUrl, replicatedDataSourceOptions(databaseUrl, config.databaseReplicaUrls)),
            extra: poolOptions(config, config.dbPoolSize, HTTP_CONNECT_WAIT_MS),
          }),
          dataSourceFactory: (options) => openDataSource(options!),
        }),
        // Job handlers: their own pool, so a burst of jobs never starves HTTP requests of connections.
        TypeOrmModule.forRootAsync({
          name: WORKER_DATA_SOURCE,
          useFactory: () => ({
            ...dataSourceOptions(databaseUrl),
            extra: poolOptions(config, config.workerDbPoolSize, WORKER_CONNECT_WAIT_MS),
          }),
          // The same guard as the HTTP pool: a connection killed as it opens must not crash the process.
          dataSourceFactory: async (options) => guardNewConnections(await new DataSource(options!).initialize()),
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
        ClientsModule,
        OrdersModule,
        LeadsModule,
        CallsModule,
        OrderStatsModule,
        NotificationsModule,
        WebhooksModule,
        EventsModule,
        DncModule,
        DialerModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATABASE_URL, useValue: databaseUrl },
        ReadDatabase,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
      exports: [APP_CONFIG, DATABASE_URL, ReadDatabase],
    };
  }
}

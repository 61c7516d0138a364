import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppModule } from './app.module';
import { createApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app.config';
import { applyMigrations } from './assembly/data-source';
import { openDatabase } from './database/start-database';
import { withStartLock } from './database/start-lock';
import { bootstrapApiKey } from './modules/auth/bootstrap-api-key';
import { DemoSeeder } from './database/seed/demo-seeder';
import { HealthService } from './modules/health/health.service';
import { serveWorkerProbes } from './modules/health/http/worker-probes';
import { installGracefulShutdown } from './modules/health/shutdown/graceful-shutdown';
import { HttpDrain } from './modules/health/shutdown/http-drain';
import { ShutdownState } from './modules/health/shutdown/shutdown-state';
import { createAppLogger, loggerParams } from './modules/observability/logging';

/** A URL to reach the server from this machine: a wildcard bind address is reached on localhost. */
function baseUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // One pino logger for the whole process, from the first line on (JSON lines, or plain text lines with LOG_FORMAT=text).
  const appLogger = createAppLogger(loggerParams(config));
  Logger.overrideLogger(appLogger);
  const logger = new Logger('Bootstrap');
  // The service owns its embedded server alone: a second one on this DATA_DIR would answer 503 for good once this one stops.
  const role = config.workersOnly ? 'a worker-only instance' : 'the API';
  const db = await openDatabase(config, new Logger('Database'), { exclusive: true, instance: `${role} on port ${config.port}` });

  // One instance at a time migrates, seeds and registers API_KEY; the others then find nothing to do.
  const app = await withStartLock(db.url, async () => {
    const applied = await applyMigrations(db.url);
    if (applied.length > 0) logger.log(`migrations applied: ${applied.join(', ')}`);
    const created = await createApp(AppModule.register({ config, databaseUrl: db.url }), { bufferLogs: true });
    created.useLogger(appLogger);
    if (db.embedded || config.seedDemo) await created.get(DemoSeeder).run();
    await bootstrapApiKey(created, config, db.embedded);
    return created;
  });

  // Our own signal handling (not Nest's enableShutdownHooks): drain HTTP, close the app, then the embedded database.
  const servers: HttpDrain[] = [];
  installGracefulShutdown({
    state: app.get(ShutdownState),
    // A worker-only instance gets no traffic to drain.
    drainSeconds: config.workersOnly ? 0 : config.shutdownDrainSeconds,
    timeoutSeconds: config.shutdownTimeoutSeconds,
    logger,
    servers: () => servers,
    closeApp: async () => {
      await app.close();
      await db.stop();
    },
  });

  if (config.workersOnly) {
    await app.init();
    // No API here, but the container probes (HEALTHCHECK, orchestrators) still need an answer.
    servers.push(new HttpDrain(await serveWorkerProbes(app.get(HealthService), config.port, config.host)));
    logger.log(`worker-only instance: ${config.workers} consumer(s) per queue; probes on ${baseUrl(config.host, config.port)}/health/live and /health/ready`);
    return;
  }
  await app.init();
  servers.push(new HttpDrain(app.getHttpServer()));
  await app.listen(config.port, config.host);
  const url = baseUrl(config.host, config.port);
  logger.log(`listening on ${url} (bound to ${config.host}; API docs: ${url}/docs)`);
}

void bootstrap().catch((err: Error) => {
  // A configuration problem found while starting (e.g. an unwritable DATA_DIR): the message says what to set.
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(`Start-up failed: ${err.stack ?? err.message}`);
  process.exit(1);
});

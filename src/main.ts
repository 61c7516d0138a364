import 'reflect-metadata';
import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import { AppModule } from './app.module';
import { createApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app.config';
import { startDatabase } from './database/start-database';
import { bootstrapApiKey } from './modules/auth/bootstrap-api-key';
import { DemoSeeder } from './database/seed/demo-seeder';
import { HealthService } from './modules/health/health.service';
import { serveWorkerProbes } from './modules/health/http/worker-probes';
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
  const db = await startDatabase(config);

  const app = await createApp(AppModule.register({ config, databaseUrl: db.url }), { bufferLogs: true });
  app.useLogger(appLogger);

  // Our own signal handling (not Nest's enableShutdownHooks): close the app first, then the embedded database.
  let closing = false;
  let probes: Server | undefined;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal}: shutting down`);
    probes?.close();
    await app.close().catch((e: Error) => logger.error(e.message));
    await db.stop().catch((e: Error) => logger.error(e.message));
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (db.embedded || config.seedDemo) await app.get(DemoSeeder).run();
  await bootstrapApiKey(app, config, db.embedded);

  if (config.workersOnly) {
    await app.init();
    // No API here, but the container probes (HEALTHCHECK, orchestrators) still need an answer.
    probes = await serveWorkerProbes(app.get(HealthService), config.port, config.host);
    logger.log(`worker-only instance: ${config.workers} consumer(s) per queue; probes on ${baseUrl(config.host, config.port)}/health/live and /health/ready`);
    return;
  }
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

import 'reflect-metadata';
import type { Server } from 'node:http';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app.config';
import { startDatabase } from './database/start-database';
import { bootstrapApiKey } from './modules/auth/bootstrap-api-key';
import { DemoSeeder } from './database/seed/demo-seeder';
import { HealthService } from './modules/health/health.service';
import { serveWorkerProbes } from './modules/health/worker-probes';

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
  // One logger for the whole process; JSON lines for log shippers when LOG_FORMAT=json.
  Logger.overrideLogger(new ConsoleLogger({ json: config.logFormat === 'json', colors: config.logFormat !== 'json' && process.stdout.isTTY }));
  const logger = new Logger('Bootstrap');
  const db = await startDatabase(config);

  const app = await NestFactory.create<NestExpressApplication>(AppModule.register({ config, databaseUrl: db.url }), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);
  app.useLogger(new ConsoleLogger({ json: config.logFormat === 'json', colors: config.logFormat !== 'json' && process.stdout.isTTY }));

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
    probes = await serveWorkerProbes(app.get(HealthService), config.port);
    logger.log(`worker-only instance: ${config.workers} consumer(s) per queue; probes on http://localhost:${config.port}/health/live and /health/ready`);
    return;
  }
  await app.listen(config.port, '0.0.0.0');
  logger.log(`listening on http://localhost:${config.port} (API docs: http://localhost:${config.port}/docs)`);
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

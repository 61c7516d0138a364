import 'reflect-metadata';
import { AppModule } from '../../src/app.module';
import { createApp } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app.config';
import { DemoSeeder } from '../../src/database/seed/demo-seeder';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import { serveCommands } from './child';
import { profilerCommands } from './cpu-profile';

/**
 * The real application in a process of its own (bench/support/child.ts), as `npm start` runs it
 * but on a loopback port with the configuration in BENCH_APP_ENV (JSON). Answers `seed` (the demo
 * dataset), `cpu` (process.cpuUsage) and the profiler commands.
 */
async function main(): Promise<void> {
  const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>;
  const config = loadConfig(env);
  const databaseUrl = process.env.BENCH_APP_DATABASE_URL!;
  const app = await createApp(AppModule.register({ config, databaseUrl }), { logger: ['error', 'warn'] });
  await app.listen(0, '127.0.0.1');
  const keys = app.get(ApiKeysService);
  const { key } = await keys.create(`bench-${Date.now()}`, ['api', 'admin', 'telephony']);
  const address = app.getHttpServer().address() as { port: number };
  serveCommands({ url: `http://127.0.0.1:${address.port}`, apiKey: key }, { seed: async () => app.get(DemoSeeder).run(), ...profilerCommands() }, () =>
    app.close(),
  );
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});

import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { AppModule } from '../app.module';
import { createApp } from '../app.setup';
import { loadConfig } from '../config/app.config';
import { buildApiDocument, serverOf } from '../api-document';

/** `npm run openapi:document -- <file>`: the document /docs-json serves, built without a database or a port (Nest's preview mode). */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, WORKERS: '0' });
  const app = await createApp(AppModule.register({ config, databaseUrl: 'postgres://preview@127.0.0.1:1/preview' }), { preview: true, logger: ['error'] });
  const document = buildApiDocument(app, serverOf(config));
  const json = `${JSON.stringify(document, null, 2)}\n`;
  if (process.argv[2]) writeFileSync(process.argv[2], json);
  else process.stdout.write(json);
  await app.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

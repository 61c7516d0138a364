import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app.config';
import { dataSourceOptions } from '../database/data-source';
import { ApiKeysService } from '../modules/auth/api-keys.service';
import { parseScopes } from '../modules/auth/domain/api-key';
import { ApiKeysRepository } from '../modules/auth/persistence/api-keys.repository';
import { withDatabaseUrl } from './with-database';

const USAGE = `Usage:
  npm run apikey -- create --name NAME [--scopes api,admin,telephony]   prints the new key once
  npm run apikey -- list
  npm run apikey -- revoke ID_OR_NAME`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  await withDatabaseUrl(config, async (url) => {
    const ds = new DataSource(dataSourceOptions(url));
    await ds.initialize();
    try {
      const keys = new ApiKeysService(ds, new ApiKeysRepository(ds), config);
      if (command === 'create') {
        const name = flag(args, 'name');
        if (!name) throw new Error('--name is required');
        const { id, key } = await keys.create(name, parseScopes(flag(args, 'scopes') ?? 'api'));
        console.log(`created key #${id} "${name}" (shown once):\n${key}`);
      } else if (command === 'list') {
        for (const k of await keys.list()) {
          const state = !k.revokedAt
            ? 'active'
            : k.revokedAt > new Date()
              ? `active until ${k.revokedAt.toISOString()} (replaced)`
              : `revoked ${k.revokedAt.toISOString()}`;
          console.log(`#${k.id}\t${k.name}\t${k.scopes.join(',')}\t${state}`);
        }
      } else {
        const target = args[0];
        if (!target) throw new Error('revoke needs an id or a name');
        const n = await keys.revoke(target);
        console.log(n > 0 ? `revoked ${n} key(s)` : 'no active key matched');
        if (n === 0) process.exitCode = 1;
      }
    } finally {
      await ds.destroy();
    }
  });
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});

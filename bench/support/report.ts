import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MachineInfo, machineLine } from './cluster';

/** What a bench hands back: a Markdown section for people and its figures for machines. */
export interface BenchSection {
  bench: string;
  machine: MachineInfo;
  markdown: string;
  data: unknown;
}

/** Relative to the working directory: `npm run bench` runs in the repository root. */
export const RESULTS_DIR = path.resolve(process.cwd(), 'bench/results');

/**
 * Writes bench/results/<stamp>-<label>.json and .md (label: BENCH_LABEL, e.g. `before`/`after`),
 * each machine described as measured (CPU, cores, RAM, PostgreSQL and its durability settings,
 * load average of the machine at start and end).
 */
export async function writeResults(sections: BenchSection[]): Promise<string[]> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const label = (process.env.BENCH_LABEL ?? 'run').replace(/[^a-z0-9_-]/gi, '-');
  const base = path.join(RESULTS_DIR, `${stamp}-${label}`);
  const md = [
    `# Bench results: ${label} (${new Date().toISOString()})`,
    '',
    ...sections.flatMap((s) => [`## ${s.bench}`, '', `Machine: ${machineLine(s.machine)}.`, '', s.markdown, '']),
  ].join('\n');
  await writeFile(`${base}.json`, JSON.stringify({ label, at: new Date().toISOString(), host: os.hostname(), sections }, null, 2));
  await writeFile(`${base}.md`, md);
  return [`${base}.json`, `${base}.md`];
}

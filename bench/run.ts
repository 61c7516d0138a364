import { authCacheBench } from './auth-cache';
import { buildAbBench } from './build-ab';
import { clientKeyBench } from './client-key';
import { dncAddBench } from './dnc-add';
import { dncCreateBench } from './dnc-create';
import { dialerBench } from './dialer';
import { leadBatchBench } from './lead-batch';
import { leadCreateBench } from './lead-create';
import { listsBench } from './lists';
import { observabilityBench } from './observability';
import { rateLimitBench } from './rate-limit';
import { requestCostBench } from './request-cost';
import { webhooksBench } from './webhooks';
import { BenchSection, writeResults } from './support/report';

/**
 * npm run bench [-- <name>...]: benchmarks that report ratios against baselines measured in the
 * same run. Without names, lead create against bare Express + pg and the lead and call lists at
 * 10k and 1M rows. Results go to bench/results/ as JSON and Markdown.
 */
const BENCHES: Record<string, () => Promise<BenchSection | void>> = {
  'lead-create': leadCreateBench,
  'lead-batch': leadBatchBench,
  lists: () => listsBench(['leads', 'calls']),
  'leads-list': () => listsBench(['leads']),
  'calls-list': () => listsBench(['calls']),
  'auth-cache': authCacheBench,
  'rate-limit': rateLimitBench,
  observability: observabilityBench,
  'request-cost': requestCostBench,
  webhooks: webhooksBench,
  'build-ab': buildAbBench,
  'client-key': clientKeyBench,
  'dnc-create': dncCreateBench,
  'dnc-add': dncAddBench,
  dialer: dialerBench,
};
const DEFAULT = ['lead-create', 'lists'];

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const selected = names.length ? names : DEFAULT;
  const sections: BenchSection[] = [];
  for (const name of selected) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`unknown bench ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    const section = await bench();
    if (section) {
      sections.push(section);
      console.log(`\n## ${section.bench}\n\n${section.markdown}`);
    }
  }
  if (sections.length) console.log(`\nresults: ${(await writeResults(sections)).join(', ')}`);
  process.exit(0);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});

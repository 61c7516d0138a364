import { authCacheBench } from './auth-cache';
import { callsListBench } from './calls-list';
import { leadCreateBench } from './lead-create';
import { leadsListBench } from './leads-list';
import { observabilityBench } from './observability';
import { rateLimitBench } from './rate-limit';

/** npm run bench -- <name>: benchmarks that report ratios against a baseline measured in the same run. */
const BENCHES: Record<string, () => Promise<void>> = {
  'auth-cache': authCacheBench,
  'leads-list': leadsListBench,
  'lead-create': leadCreateBench,
  'calls-list': callsListBench,
  'rate-limit': rateLimitBench,
  observability: observabilityBench,
};

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const selected = names.length ? names : Object.keys(BENCHES);
  for (const name of selected) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`unknown bench ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    await bench();
  }
  process.exit(0);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});

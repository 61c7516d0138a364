import { readFile } from 'node:fs/promises';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Shares of the samples in which the JavaScript thread was busy. The profiler samples on a wall clock, so a thread waiting for a core
 * counts as busy: shares are meaningful, sampled milliseconds are not CPU time; multiply a share by the measured CPU per request.
 */
export interface ProfileSummary {
  /** Wall time of the profile, ms. */
  durationMs: number;
  samples: number;
  /** Share of the busy samples with a frame of each layer on the stack (inclusive: layers nest). */
  layers: { layer: string; share: number }[];
  /** Share of the busy samples in each package's own code (self: sums to 1 over all packages). */
  selfByPackage: { where: string; share: number }[];
}

/** Where a frame's code lives: a package, a source folder of the app, Node's internals or V8. */
export function frameOwner(f: CallFrame): string {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : 'V8 builtins (JSON, RegExp, ...)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f.url);
  if (pkg) return pkg[1];
  if (f.url.startsWith('node:')) return `node:${f.url.slice(5).split('/').slice(0, 2).join('/')}`;
  const app = /\/(src|bench)\/(.*?)(?:\/[^/]+)?\.[jt]s$/.exec(f.url);
  if (app) return `${app[1]}/${app[2].split('/').slice(0, 2).join('/')}`;
  return f.url;
}

/**
 * Layers of a request as they show on the stack; a sample counts for every layer on its stack,
 * so nested layers (a guard inside Nest's router) overlap by design.
 */
const LAYERS: [string, (f: CallFrame) => boolean][] = [
  ['HTTP parsing and socket writes (node:_http_*, net, stream)', (f) => /^node:(_http_|net|internal\/stream|internal\/streams|stream)/.test(f.url)],
  ['request observer (request id, metrics, access log)', (f) => f.url.includes('request-observer')],
  ['body parser (raw-body, JSON.parse)', (f) => /node_modules\/(body-parser|raw-body)\//.test(f.url)],
  ['input checks (hostile input)', (f) => f.url.includes('common/input-checks')],
  ['express + router', (f) => /node_modules\/(express|router)\//.test(f.url)],
  ['Nest router and context (@nestjs/core)', (f) => f.url.includes('node_modules/@nestjs/core/')],
  ['ApiKeyGuard (auth, rate limit)', (f) => f.url.includes('api-key.guard') || f.url.includes('api-keys.service')],
  ['IdempotencyInterceptor', (f) => f.url.includes('idempotency')],
  ['ValidationPipe (all of it)', (f) => f.url.includes('pipes/validation.pipe') || f.url.includes('common/validation')],
  ['class-transformer', (f) => f.url.includes('node_modules/class-transformer/')],
  ['class-validator', (f) => f.url.includes('node_modules/class-validator/')],
  ['libphonenumber-js', (f) => f.url.includes('node_modules/libphonenumber-js/')],
  ['LeadsService (prepare, transaction)', (f) => f.url.includes('modules/leads/leads.service')],
  ['lead domain rules (buildNewLead, planning)', (f) => f.url.includes('modules/leads/domain/')],
  ['TypeORM (transaction, query runner)', (f) => f.url.includes('node_modules/typeorm/')],
  ['pg driver (pg, pg-protocol, pg-pool)', (f) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(f.url)],
  ['pg-boss', (f) => f.url.includes('node_modules/pg-boss/')],
  ['envelope, exception filter', (f) => /common\/(envelope|http-exception)/.test(f.url)],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
];

/** A `.cpuprofile` file as V8's profiler writes it. */
export async function readProfile(file: string): Promise<CpuProfile> {
  return JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
}

/** Each sample in which the JavaScript thread was not idle: its leaf node and the microseconds it stands for. */
export function forEachBusySample(p: CpuProfile, visit: (node: ProfileNode, us: number) => void): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  p.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName !== '(idle)') visit(node, p.timeDeltas[i + 1] ?? 0);
  });
}

export async function summariseProfile(file: string): Promise<ProfileSummary> {
  const p = await readProfile(file);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  // Layers on each node's stack, from the root down.
  const onStack = new Map<number, Set<number>>();
  const root = p.nodes[0];
  const walk: [ProfileNode, Set<number>][] = [[root, new Set()]];
  while (walk.length) {
    const [node, inherited] = walk.pop()!;
    const own = LAYERS.map(([, match], i) => (match(node.callFrame) ? i : -1)).filter((i) => i >= 0);
    const set = own.length ? new Set([...inherited, ...own]) : inherited;
    onStack.set(node.id, set);
    for (const c of node.children ?? []) walk.push([byId.get(c)!, set]);
  }
  const layerUs = new Array<number>(LAYERS.length).fill(0);
  const selfUs = new Map<string, number>();
  let busyUs = 0;
  let samples = 0;
  forEachBusySample(p, (node, us) => {
    busyUs += us;
    samples++;
    for (const l of onStack.get(node.id)!) layerUs[l] += us;
    const owner = frameOwner(node.callFrame);
    selfUs.set(owner, (selfUs.get(owner) ?? 0) + us);
  });
  const share = (us: number) => Math.round((us / busyUs) * 1000) / 1000;
  return {
    durationMs: Math.round((p.endTime - p.startTime) / 1000),
    samples,
    layers: LAYERS.map(([layer], i) => ({ layer, share: share(layerUs[i]) })).filter((l) => l.share > 0),
    selfByPackage: [...selfUs.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([where, us]) => ({ where, share: share(us) })),
  };
}

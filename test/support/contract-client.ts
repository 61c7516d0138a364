import { DemoSeeder } from '../../src/database/seed/demo-seeder';
import { LIST_WRAPPER, SUCCESS_ENVELOPE } from './api-contract';
import { apiRequests } from './api-requests';
import { expectShape } from './shape-check';
import { createTestApp, TestApp } from './test-app';

/** A response body in the contract specs: `expectShape` checks it, the specs then read its fields freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

/** A test app on the demo dataset, which every contract spec reads. */
export async function createDemoApp(): Promise<TestApp> {
  const t = await createTestApp();
  await t.app.get(DemoSeeder).run();
  return t;
}

/** Reads and writes that check the success envelope (and the list wrapper) on the way. */
export function contractRequests(app: () => TestApp) {
  const { get, post } = apiRequests(app);

  /** GET answering 200 with a success envelope, both with and without the trailing slash. */
  async function read(path: string, sameBothWays = true): Promise<Body> {
    const [base, query] = path.split('?');
    const q = query ? `?${query}` : '';
    const slashed = await get(`${base.replace(/\/$/, '')}/${q}`);
    const bare = await get(`${base.replace(/\/$/, '')}${q}`);
    expect({ path, status: slashed.status }).toEqual({ path, status: 200 });
    expect({ path: `${path} (no trailing slash)`, status: bare.status }).toEqual({ path: `${path} (no trailing slash)`, status: 200 });
    expectShape(slashed.body, SUCCESS_ENVELOPE, 'body');
    expectShape(bare.body, SUCCESS_ENVELOPE, 'body');
    if (sameBothWays) expect(bare.body.data).toEqual(slashed.body.data);
    return slashed.body.data;
  }

  /** POST answering 200 with a success envelope. */
  async function write(path: string, body: object): Promise<Body> {
    const res = await post(path, body);
    expect({ path, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ path, status: 200, body: undefined });
    expectShape(res.body, SUCCESS_ENVELOPE, 'body');
    return res.body.data;
  }

  /** Every page of a list endpoint, checking the wrapper on each. */
  async function walk(path: string, limit = 100): Promise<Body[]> {
    const items: Body[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let offset = 0; ;) {
      const page = await read(`${path}${sep}offset=${offset}&limit=${limit}`);
      expectShape(page, LIST_WRAPPER);
      items.push(...page.list);
      expect(page.next).toBe(offset + page.list.length);
      if (page.list.length < limit || page.next >= page.total) {
        expect(items.length).toBe(page.total);
        return items;
      }
      offset = page.next;
    }
  }

  return { get, post, read, write, walk };
}

import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { noteSkip } from './support/skip-notes';
import { createTestApp, TestApp } from './support/test-app';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it when absent). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT = join(__dirname, 'output');
/** In CI the browser is required; elsewhere a machine without it skips this file and says how to get it. */
const IN_CI = !!process.env.CI && !/^(false|0)$/i.test(process.env.CI);
const RUN = IN_CI || existsSync(CHROMIUM);
if (!RUN) {
  noteSkip(`Swagger UI browser test skipped: no Chromium at ${CHROMIUM}. Install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).`);
}

jest.setTimeout(120_000);

/**
 * Swagger UI in a real browser, as an integrator uses it: /docs of the app on a loopback port,
 * the key entered in the Authorize dialog, then "Try it out" and "Execute" with the default
 * examples of GET /v2/order/ and POST /v2/lead/create; the page must show 200 for each.
 */
(RUN ? describe : describe.skip)('Swagger UI in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: install it with "apt-get install -y chromium" (.ci/run does) or set CHROMIUM_PATH`);
    }
    t = await createTestApp({ WORKERS: '0' });
    await t.app.get(DemoSeeder).run();
    await t.app.listen(0, '127.0.0.1');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Opens an operation, runs its default example and returns the status the page shows. */
  async function tryItOut(block: Locator): Promise<string> {
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 20_000 });
    return (await status.innerText()).trim();
  }

  it('authorises with a key and runs GET /v2/order/ and a lead create from their examples', async () => {
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });

    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(t.apiKey);
    await dialog.locator('button.authorize').click();
    await dialog.locator('button.btn-done').click();

    const orders = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path[data-path="/v2/order"]') });
    expect(await tryItOut(orders)).toBe('200');
    await expect(orders.locator('.live-responses-table .response .response-col_description').first().innerText()).resolves.toContain('"total"');

    const leadCreate = page.locator('.opblock-post').filter({ has: page.locator('.opblock-summary-path[data-path="/v2/lead/create"]') });
    expect(await tryItOut(leadCreate)).toBe('200');
    await expect(leadCreate.locator('.live-responses-table .response .response-col_description').first().innerText()).resolves.toMatch(/"id":\s*\d+/);

    mkdirSync(OUTPUT, { recursive: true });
    await leadCreate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, 'docs.png'), fullPage: false });
    expect(pageErrors).toEqual([]);
  });
});

// The package imported as an ES module: the `import` condition's build.
import assert from 'node:assert/strict';
import * as pkg from '@callcenter/integration-client';
import { run } from './checks.cjs';

assert.match(import.meta.resolve('@callcenter/integration-client'), /\/node_modules\/@callcenter\/integration-client\/dist\/index\.mjs$/);
assert.deepEqual(Object.keys(pkg).sort(), ['WebhookVerificationError', 'createCallCenterClient', 'verifyWebhook']);
await run(pkg, 'ES module');

// The package required from CommonJS: the `require` condition's build.
'use strict';
const assert = require('node:assert/strict');
const pkg = require('@callcenter/integration-client');
const { run } = require('./checks.cjs');

assert.match(require.resolve('@callcenter/integration-client'), /\/node_modules\/@callcenter\/integration-client\/dist\/index\.js$/);
assert.deepEqual(Object.keys(pkg).sort(), ['WebhookVerificationError', 'createCallCenterClient', 'verifyWebhook']);
run(pkg, 'CommonJS').catch((err) => {
  console.error(err);
  process.exit(1);
});

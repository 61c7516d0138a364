const { availableParallelism } = require('node:os');

// Nest 12 ships ES modules: npm scripts run Jest on Node 24 with --experimental-vm-modules,
// so CommonJS test code can require() them without transforming node_modules.
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }],
};
const common = {
  testEnvironment: 'node',
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/support/release-stdin.ts'],
};

module.exports = {
  // Jest reads testTimeout and maxWorkers from the root config only; inside a project entry they are ignored.
  // e2e tests drive a real server and database on a shared 2-core machine: 30 s, not 5 s.
  testTimeout: 30000,
  // An e2e file spends most of its time waiting on PostgreSQL and timers, so two files at once keep
  // two cores busy; Jest's default (cores - 1) runs a 2-core machine in band, one core idle.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A worker ends after its last file holding a heap of 1 to 2 GB; on two busy cores its exit can take more than Jest's default
  // 500 ms, after which Jest kills it and reports a leak. Open handles are what keeps a worker alive, not this (release-stdin.ts).
  workerGracefulExitTimeout: 5000,
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/src', '<rootDir>/clients'], testRegex: '\\.spec\\.ts$' },
    {
      ...common,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testRegex: '\\.e2e-spec\\.ts$',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};

// The reliability suite: the built service as a child process on its own throwaway PostgreSQL,
// which the tests kill and restart, and CPU-time bounds, which only a quiet machine measures
// reliably. Not part of `npm test`: run `npm run test:reliability`.
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json', diagnostics: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  roots: ['<rootDir>/test/reliability'],
  testRegex: 'test/reliability/.*\\.rel-spec\\.ts$',
  // Scenarios drive real faults and thousands of requests; each bounds its own waits.
  testTimeout: 600000,
  globalSetup: '<rootDir>/test/reliability/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/reliability/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/reliability/support/sequencer.js',
  verbose: true,
};

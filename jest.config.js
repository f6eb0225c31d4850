/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|m?j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.js'],
  testTimeout: 60_000,
  // Two cores: two workers keep dockerd and postgres responsive.
  maxWorkers: 2,
};

/** Every workspace's tests and the benchmark's own in one run: `npx jest` at the root (what `npm test` calls after its setup). */
const { availableParallelism } = require("node:os");

module.exports = {
  // testTimeout is a global option: the per-project presets' value is ignored in a root run.
  testTimeout: 60000,
  // Most of a test file's time is spent waiting on PostgreSQL, NATS, Redis, a chain node or an app it started, so
  // jest's default of one worker fewer than the cores (a single worker on two cores) leaves the machine half idle.
  // Every file works in its own schema, stream, key prefix and ports, so two files never see each other.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: ["<rootDir>/packages/*", "<rootDir>/packages/adapters/*", "<rootDir>/apps/*", "<rootDir>/e2e", "<rootDir>/bench"].map((p) => `${p}/jest.config.js`),
};

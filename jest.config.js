/** Every workspace's tests in one run: `npx jest` at the root (what `npm test` calls after its setup). */
module.exports = {
  // testTimeout is a global option: the per-project presets' value is ignored in a root run.
  testTimeout: 60000,
  projects: ["<rootDir>/packages/*", "<rootDir>/packages/adapters/*", "<rootDir>/apps/*", "<rootDir>/e2e"].map((p) => `${p}/jest.config.js`),
};

/** Every workspace's tests in one run: `npx jest` at the root (what `npm test` calls after its setup). */
module.exports = {
  projects: ["<rootDir>/packages/*", "<rootDir>/packages/adapters/*", "<rootDir>/apps/*", "<rootDir>/e2e"].map((p) => `${p}/jest.config.js`),
};

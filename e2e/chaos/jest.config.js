// The chaos suite's own jest project (`npm run chaos`): one long test, kept out of the e2e run.
module.exports = { ...require("../../jest.preset.js"), rootDir: __dirname, testMatch: ["<rootDir>/*.test.ts"], testTimeout: 420000 };

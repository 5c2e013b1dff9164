/** The benchmark's own tests (its helpers, the paced load, the run lock and the scoring floor): part of `npm test`, or alone with `npx jest -c bench/jest.config.js`. */
module.exports = { ...require("../jest.preset.js"), rootDir: __dirname, testMatch: ["<rootDir>/lib/**/*.test.ts", "<rootDir>/scoring/**/*.test.ts"] };

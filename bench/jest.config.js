/** The benchmark's own tests (its pure helpers, the paced load and the run lock), not part of `npm test`: `npx jest -c bench/jest.config.js`. */
module.exports = { ...require("../jest.preset.js"), rootDir: __dirname, testMatch: ["<rootDir>/lib/**/*.test.ts"] };

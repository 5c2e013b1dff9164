/** The benchmark's own tests (its pure helpers and the paced load), not part of `npm test`: `npx jest -c bench/jest.config.js`. */
module.exports = { ...require("../jest.preset.js"), rootDir: __dirname, testMatch: ["<rootDir>/lib/**/*.test.ts"] };

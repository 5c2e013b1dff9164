/** The benchmark's own pure helpers (history and report sections); the benchmarks themselves run with `npm run bench`. */
module.exports = { ...require("../jest.preset.js"), testMatch: ["<rootDir>/lib/**/*.test.ts"] };

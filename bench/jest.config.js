/** The benchmark's own pure helpers (history, report sections, the scoring notes); the benchmarks themselves run with `npm run bench`. */
module.exports = { ...require("../jest.preset.js"), testMatch: ["<rootDir>/lib/**/*.test.ts", "<rootDir>/scoring/**/*.test.ts"] };

// Local measurement config (not committed): MUT_FILES mutated, only the tests in MUT_TESTS run.
import base from "./stryker.config.mjs";
const name = process.env.MUT_NAME ?? "fast";
export default {
  ...base,
  jest: { ...base.jest, config: { testMatch: process.env.MUT_TESTS.split(",").map((p) => `<rootDir>/${p}`) } },
  mutate: process.env.MUT_FILES.split(","),
  timeoutMS: 20000,
  concurrency: 1,
  htmlReporter: { fileName: `/tmp/mt/${name}.html` },
  jsonReporter: { fileName: `/tmp/mt/${name}.json` },
};

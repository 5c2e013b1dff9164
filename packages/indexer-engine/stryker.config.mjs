// Mutation testing of the indexer engine (`npm run mutate -- indexer-engine`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "indexer-engine",
  // Every source file except the run loop (engine.ts) and the range runner (range.ts), which need a chain node and
  // are tested end to end in apps/indexer-service, and the test helpers. The package's tests need no chain node but
  // some use the local Redis (state store, pricer cache) and HTTP stand-ins on 127.0.0.1, so a run needs Redis.
  mutate: ["src/**/*.ts", "!src/**/*.test.ts", "!src/engine.ts", "!src/range.ts", "!src/testing/**"],
});

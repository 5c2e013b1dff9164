// Mutation testing of the indexer engine's pure parts (`npm run mutate -- indexer-engine`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "indexer-engine",
  // Code that talks to Redis, an RPC node or an HTTP endpoint, or runs a range through them (range.ts), is left
  // to the service tests, and so is pricing/clmath.ts: its tests hold it to the Uniswap V3 SDK, a dependency of
  // apps/indexer-service only. Enrichment, the earn-event mapping and the position feed compute without I/O but
  // their tests keep the pricer's cache in a state store, so a run of those needs the local Redis.
  mutate: [
    "src/windows.ts",
    "src/events.ts",
    "src/decimal.ts",
    "src/registry.ts",
    "src/erc20.ts",
    "src/progress.ts",
    "src/config/*.ts",
    "!src/config/*.test.ts",
    "src/pricing/match.ts",
    "src/pricing/position-decimal.ts",
    "src/sinks/csv-encode.ts",
    "src/chain/boundary.ts",
    "src/util/lru.ts",
    "src/enrich.ts",
    "src/sinks/earn.ts",
    "src/chain/revert.ts",
    "src/pricing/position.ts",
  ],
  testMatch: [
    "src/windows.test.ts",
    "src/windows-order.test.ts",
    "src/decimal.test.ts",
    "src/events.test.ts",
    "src/registry.test.ts",
    "src/erc20.test.ts",
    "src/progress.test.ts",
    "src/config/*.test.ts",
    "src/pricing/match.test.ts",
    "src/pricing/position-decimal.test.ts",
    "src/sinks/csv-encode.test.ts",
    "src/sinks/csv-line.test.ts",
    "src/sinks/csv.test.ts",
    "src/chain/boundary.test.ts",
    "src/util/lru.test.ts",
    "src/enrich.test.ts",
    "src/sinks/earn.test.ts",
    "src/sinks/pointwise.test.ts",
    "src/chain/revert.test.ts",
    "src/pricing/position.test.ts",
    "src/pricing/pricer.test.ts",
    "src/range-overlap.test.ts",
  ],
});

// Mutation testing of ingest-core's pure parts, the ones whose tests need no service (`npm run mutate -- ingest-core`).
import { mutationConfig } from "../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "ingest-core",
  mutate: ["src/batch-body.ts", "src/envelope.ts", "src/event-id.ts", "src/event-time.ts", "src/ttl-cache.ts", "src/csv/answer.ts", "src/csv/utf8.ts"],
  testMatch: [
    "src/batch-body.test.ts",
    "src/envelope.test.ts",
    "src/event-id.test.ts",
    "src/event-time.test.ts",
    "src/ttl-cache.test.ts",
    "src/csv/answer.test.ts",
    "src/csv/utf8.test.ts",
  ],
});

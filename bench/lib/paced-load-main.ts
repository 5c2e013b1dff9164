// Runs one paced load (bench/lib/paced-load.ts) in a process of its own and prints its result as
// one JSON line. The benchmarks start it through `pacedLoadProcess`: a small process whose heap holds
// nothing but the load, so a garbage collection of the benchmark's own data (fixtures, earlier
// autocannon runs) cannot pause the sender and show up as server latency.
import { type PacedOptions, pacedLoad } from "./paced-load";

const options = JSON.parse(process.argv[2] ?? "{}") as PacedOptions;
pacedLoad(options).then(
  (result) => {
    process.stdout.write(`PACED_RESULT ${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`paced load failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

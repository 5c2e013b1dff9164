// Runs one paced load (bench/lib/paced-load.ts) with the options read from stdin and prints its result as one JSON line.
import { type PacedOptions, pacedLoad } from "./paced-load";

let input = "";
process.stdin.on("data", (d) => {
  input += d;
});
process.stdin.on("end", () => {
  pacedLoad(JSON.parse(input) as PacedOptions).then(
    (result) => {
      process.stdout.write(`PACED_RESULT ${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`paced load failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
});

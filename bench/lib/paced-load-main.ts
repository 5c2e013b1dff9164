// Runs one paced load (bench/lib/paced-load.ts) with the options read from stdin and prints its result line.
import { main, printResult } from "./child";
import { type PacedOptions, pacedLoad } from "./paced-load";

let input = "";
process.stdin.on("data", (d) => {
  input += d;
});
process.stdin.on("end", () => main(async () => printResult("PACED_RESULT", await pacedLoad(JSON.parse(input) as PacedOptions))));

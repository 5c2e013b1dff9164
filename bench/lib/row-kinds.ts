// What a benchmark's output rows are: counted by kind from a csv sink's file, and put as shares for the report.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/**
 * The rows of a csv sink's file by kind: `action`, or `window <trigger>` (what closed the window). Only the last
 * column (meta) is ever quoted, so the first and the trigger column are read by position.
 */
export async function rowsByKind(csvPath: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let trigger = -1;
  for await (const line of createInterface({ input: createReadStream(csvPath), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (trigger < 0) {
      trigger = line.split(",").indexOf("trigger");
      continue;
    }
    if (line === "") continue;
    const cells = line.split(",", trigger + 1);
    const kind = cells[0] === "window" ? `window ${cells[trigger]}` : (cells[0] as string);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Row kinds as whole-percent shares of all rows, largest first: "window statusChange 82%, window flush 8%, action 6%". */
export function rowKindShares(byKind: Record<string, number>): string {
  const total = Object.values(byKind).reduce((a, b) => a + b, 0);
  return Object.entries(byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${Math.round((100 * n) / total)}%`)
    .join(", ");
}

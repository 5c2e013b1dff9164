// A 200,000-row CSV import streams in memory that does not grow with the file.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";

const ROWS = 200_000;

/**
 * A 200,000-row file (about 20 MB) goes through both passes while the retained heap (measured after full
 * garbage collections, in a process of its own so jest's own heap does not blur it) stays far below the
 * file's size: the import streams instead of holding the file.
 */
it(`imports a ${ROWS}-row file with a heap that does not grow with the file`, () => {
  const script = path.join(__dirname, "..", "..", "test", "large-import.ts");
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", script, String(ROWS)], {
    cwd: repoRoot,
    encoding: "utf8",
    env: process.env,
    timeout: 150_000,
  });
  if (run.status !== 0) throw new Error(`large import failed (${run.status}): ${run.stderr}`);
  const report = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}");
  expect(report).toMatchObject({ rows: ROWS, status: "done", published: ROWS, jobPublished: ROWS, stored: ROWS, spoolsLeft: 0 });
  expect(report.bytes).toBeGreaterThan(20_000_000);
  // Generous: holding the rows would take several times the file's 20 MB; streaming needs a few MiB.
  expect(report.peakHeapGrowth).toBeLessThan(16 * 1024 * 1024);
}, 180_000);

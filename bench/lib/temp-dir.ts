// A temporary directory that lives exactly as long as the work handed it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Runs `fn` with a new directory under the system's temporary folder, named `prefix` and a random
 * suffix, and removes it with whatever was written there once `fn` has finished or failed: benchmarks
 * write profiles, response bodies and csv output there, and none of it is wanted after the run.
 */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withTempDir } from "./temp-dir";

describe("withTempDir", () => {
  it("hands out a new directory named by the prefix under the temporary folder and removes it afterwards", async () => {
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      await withTempDir("pw-test-", async (dir) => {
        seen.push(dir);
        writeFileSync(path.join(dir, "body.json"), "{}");
      });
    }
    expect(seen.map((d) => path.dirname(d))).toEqual([os.tmpdir(), os.tmpdir()]);
    expect(seen.every((d) => path.basename(d).startsWith("pw-test-"))).toBe(true);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen.some((d) => existsSync(d))).toBe(false);
  });
});

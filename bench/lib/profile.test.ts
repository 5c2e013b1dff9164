import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withProfileDir } from "./profile";

describe("withProfileDir", () => {
  it("hands out an empty directory and removes it with what was written there", async () => {
    let seen = "";
    const result = await withProfileDir(async (dir) => {
      seen = dir;
      writeFileSync(path.join(dir, "app.cpuprofile"), "{}");
      return existsSync(path.join(dir, "app.cpuprofile"));
    });
    expect(result).toBe(true);
    expect(seen).not.toBe("");
    expect(existsSync(seen)).toBe(false);
  });

  it("removes the directory when the work fails, and passes the failure on", async () => {
    let seen = "";
    await expect(
      withProfileDir(async (dir) => {
        seen = dir;
        throw new Error("load failed");
      }),
    ).rejects.toThrow("load failed");
    expect(existsSync(seen)).toBe(false);
  });
});

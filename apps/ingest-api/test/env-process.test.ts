// The built ingest-api refuses a malformed connection URL at start: exit 1, the variable named, its password never printed.
import { spawnApp, testServiceEnv, uniqueName } from "@pointwise/testkit";

describe("ingest-api process with a malformed REDIS_URL", () => {
  it("exits 1 naming REDIS_URL, and its password appears nowhere in the output", async () => {
    const env = { ...testServiceEnv(uniqueName("ingest_env")), REDIS_URL: "redis://:s3cretpw@ho st:6379", STARTUP_TIMEOUT_MS: "5000" };
    const app = await spawnApp("ingest-api", env, { waitReady: false });
    const code = await new Promise<number | null>((resolve) => {
      if (app.child.exitCode !== null) resolve(app.child.exitCode);
      else app.child.once("exit", resolve);
    });
    const output = app.output();
    expect(code).toBe(1);
    expect(output).toMatch(/REDIS_URL: must be a well-formed URL/);
    expect(output).not.toContain("s3cretpw");
  });
});

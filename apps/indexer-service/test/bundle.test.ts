// The built indexer (dist/main.js, `npm run build`): runs on its own, loads no file besides itself (the metrics server's
// dist/metrics.js only when asked for), maps to our sources.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { freePort } from "./support/net";

const APP = join(__dirname, "..");
const MAIN = join(APP, "dist", "main.js");
const EXAMPLE = join(APP, ".pointwise.example.json");
let dir: string;

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does it)`);
  dir = mkdtempSync(join(tmpdir(), "pw-bundle-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle with `args`, from a folder with no node_modules, and a clean environment. */
function runBundle(args: string[], nodeArgs: string[] = [], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...nodeArgs, MAIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" });
}

describe("the built indexer", () => {
  it("validates the example config and exits 0", () => {
    const result = runBundle(["validate", EXAMPLE]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Config is valid: indexerId \S+, chain \d+, adapter [a-z0-9-]+, \d+ sink\(s\)\n$/);
    expect(result.status).toBe(0);
  });

  it("validates INDEXER_CONFIG from its environment when given no file, and exits 2 without either", () => {
    const result = runBundle(["validate"], [], { INDEXER_CONFIG: readFileSync(EXAMPLE).toString("base64") });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Config is valid: indexerId \S+/);
    expect(result.status).toBe(0);
    const neither = runBundle(["validate"]);
    expect(neither.stderr).toBe("validate needs a config file or INDEXER_CONFIG\n");
    expect(neither.status).toBe(2);
  });

  it("exits 1 naming the missing variable when run without its environment", () => {
    const result = runBundle(["run", "--config", EXAMPLE]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("POINTWISE_API_KEY");
  });

  it("exits 1 with one log line naming a bad LOG_LEVEL and every missing variable, and no stack", () => {
    const result = runBundle(["run"], [], { LOG_LEVEL: "verbose" });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: "error",
      code: "config-invalid",
      msg:
        "Invalid environment: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent; POINTWISE_API_KEY is required; " +
        "RPC_URL is required; PRICE_API_KEY is required; INDEXER_CONFIG is required",
    });
  });

  it("never prints the credentials of a malformed state store or RPC URL", () => {
    const config = JSON.parse(readFileSync(EXAMPLE, "utf8")) as Record<string, unknown>;
    const file = join(dir, "malformed-urls.json");
    writeFileSync(file, JSON.stringify({ ...config, stateStoreUrl: "redis://default:s3cretpw@my redis:6379" }));
    const env = { POINTWISE_API_KEY: "k", PRICE_API_KEY: "p", RPC_URL: "http://127.0.0.1:1" };
    const checked = runBundle(["validate", file]);
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain("  - stateStoreUrl must be a well-formed URL with a host");
    const store = runBundle(["run", "--config", file], [], env);
    expect(store.status).toBe(1);
    expect(JSON.parse(store.stdout.trim())).toMatchObject({ code: "config-invalid" });
    const rpc = runBundle(["run", "--config", EXAMPLE], [], { ...env, RPC_URL: "http://user:pw@ho st/key123" });
    expect(rpc.status).toBe(1);
    expect(JSON.parse(rpc.stdout.trim())).toMatchObject({ code: "config-invalid", msg: expect.stringContaining("RPC_URL: must be a well-formed URL") });
    for (const output of [checked, store, rpc].flatMap((r) => [r.stdout, r.stderr])) expect(output).not.toMatch(/s3cretpw|key123|pw@/);
  });

  it("prints the usage and exits 2 for an argument help does not take", () => {
    const result = runBundle(["help", "extra"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^help takes no arguments, got: extra\n\nUsage: indexer <command>/);
  });

  it("starts the health and metrics server from its own bundle, dist/metrics.js, when METRICS_PORT is set", async () => {
    const config = join(dir, "unreachable.json");
    // An RPC endpoint nothing listens on: the server starts first, then the run stops at its first request.
    const token = "0x00000000000000000000000000000000000000c1";
    writeFileSync(
      config,
      JSON.stringify({
        kind: "evm",
        indexerId: "bundle",
        flushMs: 3_600_000,
        stateStoreUrl: "redis://127.0.0.1:6379",
        network: { chainId: 31337, finality: 0 },
        range: { fromBlock: 1, toBlock: 2 },
        sinkConfig: { sinks: [{ sinkType: "csv", path: join(dir, "rows.csv") }] },
        adapterConfig: { adapterId: "erc20-holdings", params: { tokenAddress: token } },
      }),
    );
    const env = {
      POINTWISE_API_KEY: "k",
      PRICE_API_KEY: "k",
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      METRICS_PORT: String(await freePort()),
      INDEXER_RPC_MAX_ATTEMPTS: "1",
      STATE_KEY_PREFIX: "pwt-bundle",
    };
    const result = runBundle(["run", "--config", config], [], env);
    const messages = result.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages[0]).toBe("indexer health and metrics listening");
    expect(messages.at(-1)).toBe("RPC Connection Failed");
    expect(result.status).toBe(1);
  });

  it("loads no module file besides itself: third-party packages are inside the bundle", () => {
    const hook = join(dir, "loads.js");
    const report = join(dir, "loads.json");
    // Records every module the process loads through require that is not one of node's own.
    writeFileSync(
      hook,
      `const M = require("module"); const fs = require("fs"); const seen = new Set(); const load = M._load;
M._load = function (request, parent, isMain) { if (!M.isBuiltin(request)) seen.add(request); return load.apply(this, arguments); };
process.on("exit", () => fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify([...seen])));`,
    );
    expect(runBundle(["validate", EXAMPLE], ["--require", hook]).status).toBe(0);
    expect(JSON.parse(readFileSync(report, "utf8"))).toEqual([MAIN]);
  });

  it("has a source map leading back to the service's TypeScript sources", () => {
    const code = readFileSync(MAIN, "utf8");
    const map = new SourceMap(JSON.parse(readFileSync(`${MAIN}.map`, "utf8")));
    // Names are kept in the bundle, so the CLI's entry function can be found by its name.
    const at = code.indexOf("async function runCli(");
    expect(at).toBeGreaterThan(0);
    const lines = code.slice(0, at).split("\n");
    const entry = map.findEntry(lines.length - 1, (lines.at(-1) as string).length) as { originalSource?: string; originalLine?: number };
    expect(resolve(dirname(MAIN), entry.originalSource as string)).toBe(join(APP, "src", "app.ts"));
    const source = readFileSync(join(APP, "src", "app.ts"), "utf8").split("\n");
    expect(source[entry.originalLine as number]).toContain("export async function runCli(");
  });
});

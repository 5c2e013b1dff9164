// The indexer's command line: commands, config and env checks with exact messages, adapter conformance.

import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { BaseError } from "@pointwise/errors";
import { isSemver } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { ADAPTERS, createRegistry } from "../src/adapters";
import { logError, runCli } from "../src/app";
import { parseCommand, USAGE } from "../src/cli";
import { loadRunEnv } from "../src/env";
import { needsMarketPrices } from "../src/run";
import { buildConfig } from "./support/harness";

// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary parts of a config to break one rule at a time.
type Config = Record<string, any>;

const EXAMPLE = join(__dirname, "..", ".pointwise.example.json");
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pw-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cli(argv: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const code = await runCli(argv, { env, stdout, stderr, signal: new AbortController().signal });
  const logs = `${out}\n${err}`
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, out, err, logs };
}

/** The line the CLI logs for a run stopped by `err`. */
function logLine(err: unknown): string {
  let line = "";
  const destination = new PassThrough().on("data", (chunk) => {
    line += chunk;
  });
  logError(createLogger({ service: "indexer-service", destination }), err);
  return line;
}

/** The TypeError the URL parser throws for a host with a space: it keeps the whole URL, password included, as `input`. */
function urlParserError(): unknown {
  try {
    new URL("redis://default:s3cretpw@my redis:6379");
  } catch (err) {
    return err;
  }
  throw new Error("the URL parser took a host with a space");
}

async function configFile(name: string, edit: (c: Config) => void): Promise<string> {
  const config = JSON.parse(await import("node:fs/promises").then((fs) => fs.readFile(EXAMPLE, "utf8"))) as Config;
  edit(config);
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(config));
  return path;
}

describe("command line", () => {
  it("parses commands", () => {
    expect(parseCommand([])).toEqual({ name: "run" });
    expect(parseCommand(["run", "--config", "a.json"])).toEqual({ name: "run", configFile: "a.json" });
    expect(parseCommand(["run", "--config=b.json"])).toEqual({ name: "run", configFile: "b.json" });
    expect(parseCommand(["validate", "c.json"])).toEqual({ name: "validate", file: "c.json" });
    expect(parseCommand(["frobnicate"])).toEqual({ name: "invalid", message: "unknown command: frobnicate" });
  });

  it("asks for help with --help or -h after any command, and refuses any other argument of help or any other option", () => {
    for (const argv of [["help"], ["--help"], ["-h"], ["validate", "--help"], ["validate", "-h"], ["run", "--help"], ["run", "-h"]])
      expect(parseCommand(argv)).toEqual({ name: "help" });
    expect(parseCommand(["help", "extra"])).toEqual({ name: "invalid", message: "help takes no arguments, got: extra" });
    expect(parseCommand(["-h", "run"])).toEqual({ name: "invalid", message: "help takes no arguments, got: run" });
    expect(parseCommand(["validate", "--verbose"])).toEqual({
      name: "invalid",
      message: "validate takes a file, not the option --verbose (write ./--verbose for a file of that name)",
    });
    expect(parseCommand(["validate", "./--help"])).toEqual({ name: "validate", file: "./--help" });
    expect(parseCommand(["run", "--config", "--help"])).toEqual({ name: "help" });
  });

  it("prints the usage and exits 2 for an argument of help, and exits 0 for validate --help", async () => {
    const extra = await cli(["help", "extra"]);
    expect(extra).toMatchObject({ code: 2, out: "" });
    expect(extra.err).toBe(`help takes no arguments, got: extra\n\n${USAGE}`);
    expect(await cli(["validate", "--help"])).toMatchObject({ code: 0, out: USAGE, err: "" });
  });

  it("validates the shipped example config", async () => {
    const { code, out } = await cli(["validate", EXAMPLE]);
    expect(code).toBe(0);
    expect(out).toBe("Config is valid: indexerId example-usdc-weth-lp, chain 1, adapter amm-v2, 3 sink(s)\n");
  });

  it("validates INDEXER_CONFIG (base64) when no file is given", async () => {
    const text = await import("node:fs/promises").then((fs) => fs.readFile(EXAMPLE));
    expect((await cli(["validate"], { INDEXER_CONFIG: text.toString("base64") })).code).toBe(0);
    // An empty INDEXER_CONFIG is no config, as for `run`.
    expect(await cli(["validate"], { INDEXER_CONFIG: "" })).toMatchObject({ code: 2, err: "validate needs a config file or INDEXER_CONFIG\n" });
  });

  it("lists every problem of an invalid config with the exact messages", async () => {
    const path = await configFile("bad.json", (c) => {
      c.flushMs = 60_000;
      c.stateStoreUrl = "memcached://cache";
    });
    const { code, err } = await cli(["validate", path]);
    expect(code).toBe(1);
    expect(err).toBe("Invalid indexer config:\n  - flushMs must be at least 3600000\n  - stateStoreUrl must begin with redis:// or rediss://\n");
  });

  it("names the registered adapters for an unknown adapterId", async () => {
    const path = await configFile("foo.json", (c) => (c.adapterConfig.adapterId = "foo"));
    expect((await cli(["validate", path])).err).toContain(`  - Unknown adapter: foo. Available adapters: ${createRegistry().ids().join(", ")}\n`);
  });

  it("reports the amm-v2 rule that something must be tracked", async () => {
    const path = await configFile("none.json", (c) => (c.adapterConfig.params = { poolAddress: c.adapterConfig.params.poolAddress }));
    expect((await cli(["validate", path])).err).toContain("  - At least one of trackSwaps or trackLP must be enabled\n");
  });

  it("validates vault configs with both share feeds' selectors and refuses bad vault params with clear messages", async () => {
    const vault = "0x83F20F44975D03b1b09e64809B757c47f942BEeA";
    const good = await configFile("vault.json", (c) => {
      c.adapterConfig = { adapterId: "vault", params: { vaultAddress: vault, version: "v2" } };
      c.assetFeedConfig = [
        {
          match: { matchLabels: { protocol: "vault" } },
          config: { assetType: "erc20", priceFeed: { kind: "vaultshare", version: "v2", underlying: { kind: "market", id: "dai" } } },
        },
        {
          match: { key: "0x5c6Ee304399DBdB9C8Ef030aB642B10820DB8F56" },
          config: {
            assetType: "erc20",
            priceFeed: {
              kind: "balancerv2nav",
              tokens: {
                "0xba100000625a3754423978a60c9317c58a424e3D": { kind: "market", id: "balancer" },
                "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2": { kind: "market", id: "weth" },
              },
            },
          },
        },
      ];
    });
    expect(await cli(["validate", good])).toMatchObject({
      code: 0,
      out: "Config is valid: indexerId example-usdc-weth-lp, chain 1, adapter vault, 3 sink(s)\n",
    });
    const bad = await configFile("vault-bad.json", (c) => (c.adapterConfig = { adapterId: "vault", params: { vaultAddress: "0x12", version: "v4" } }));
    const { code, err } = await cli(["validate", bad]);
    expect(code).toBe(1);
    expect(err).toContain("  - adapterConfig.params.vaultAddress must be a 0x-prefixed 20-byte hex address\n");
    expect(err).toContain("  - adapterConfig.params.version must be one of v1, v2 (v2: ERC-4626, v1: pricePerShare())\n");
  });

  it("stops a run that lacks a required variable, naming each", async () => {
    const { code, logs } = await cli(["run"], {});
    expect(code).toBe(1);
    const message = String(logs.find((l) => l.level === "error")?.msg);
    for (const name of ["POINTWISE_API_KEY is required", "RPC_URL is required", "PRICE_API_KEY is required", "INDEXER_CONFIG is required"])
      expect(message).toContain(name);
    const onlyConfig = await cli(["run"], { POINTWISE_API_KEY: "k", RPC_URL: "http://127.0.0.1:1", PRICE_API_KEY: "p" });
    expect(String(onlyConfig.logs.find((l) => l.level === "error")?.msg)).toBe("Invalid environment: INDEXER_CONFIG is required");
    expect(() => loadRunEnv({ POINTWISE_API_KEY: "k", RPC_URL: "ftp://node", PRICE_API_KEY: "p", INDEXER_CONFIG: "x" })).toThrow(
      "RPC_URL: must be a URL starting with http:// or https://",
    );
  });

  it("reports a bad LOG_LEVEL as an invalid variable beside every missing one, without a stack", async () => {
    const { code, logs, err } = await cli(["run"], { LOG_LEVEL: "loud" });
    expect(code).toBe(1);
    expect(err).toBe("");
    expect(logs).toEqual([
      expect.objectContaining({
        level: "error",
        code: "config-invalid",
        msg:
          "Invalid environment: LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent; POINTWISE_API_KEY is required; " +
          "RPC_URL is required; PRICE_API_KEY is required; INDEXER_CONFIG is required",
      }),
    ]);
  });

  it("refuses a malformed stateStoreUrl at validation, never showing its password", async () => {
    const path = await configFile("redis-space.json", (c) => (c.stateStoreUrl = "redis://default:s3cretpw@my redis:6379"));
    const { code, err } = await cli(["validate", path]);
    expect(code).toBe(1);
    expect(err).toBe(
      "Invalid indexer config:\n  - stateStoreUrl must be a well-formed URL with a host: redis[s]://[user:password@]host[:port][/db], " +
        "special characters of user and password percent-encoded\n",
    );
    // `run` stops at the same check before connecting to anything.
    const run = await cli(["run", "--config", path], { POINTWISE_API_KEY: "k", RPC_URL: "http://127.0.0.1:1", PRICE_API_KEY: "p" });
    expect(run.code).toBe(1);
    expect(run.logs.find((l) => l.level === "error")).toMatchObject({ code: "config-invalid" });
    expect(`${run.out}${run.err}`).not.toContain("s3cretpw");
  });

  it("stops a run whose RPC_URL is malformed naming RPC_URL, never showing its credentials", async () => {
    for (const url of ["http://user:pw@ho st/key123", "http://"]) {
      const { code, out, err, logs } = await cli(["run", "--config", EXAMPLE], { POINTWISE_API_KEY: "k", RPC_URL: url, PRICE_API_KEY: "p" });
      expect(code).toBe(1);
      expect(logs.find((l) => l.level === "error")?.msg).toBe(
        "Invalid environment: RPC_URL: must be a well-formed URL with a host: http(s)://host[:port][/path]",
      );
      expect(`${out}${err}`).not.toMatch(/key123|pw@/);
    }
  });

  it("logs an unexpected error without the input the URL parser keeps, and with the credentials of URLs hidden", () => {
    const parserError = urlParserError();
    // The parser's TypeError carries the whole URL; logged as is (pino's own err serializer), the password showed.
    expect((parserError as { input?: string }).input).toContain("s3cretpw");
    const logged = (err: unknown) => {
      const line = logLine(err);
      expect(JSON.parse(line).msg).toBe("indexer failed");
      return { text: line, err: JSON.parse(line).err };
    };
    const parser = logged(parserError);
    expect(parser.err).toMatchObject({ type: "TypeError", message: "Invalid URL" });
    expect(parser.text).not.toContain("s3cretpw");
    const quoted = logged(new Error("request to https://user:key123@rpc.internal/v2 and redis://:p@ss@cache:6379/0 failed")).err;
    expect(quoted.message).toBe("request to https://***@rpc.internal/v2 and redis://***@cache:6379/0 failed");
    expect(quoted.stack).not.toMatch(/key123|p@ss/);
    expect(logged("thrown text").err).toEqual("thrown text");
  });

  it("logs an expected error's cause without the input the URL parser keeps, and with the credentials of URLs hidden", () => {
    const inner = new Error("request to https://user:key123@rpc.internal/v2 failed", { cause: urlParserError() });
    const line = logLine(new BaseError("rpc-connection-failed", "RPC Connection Failed", { cause: inner, details: { reason: "gave up" } }));
    expect(line).not.toMatch(/s3cretpw|key123/);
    expect(JSON.parse(line)).toMatchObject({
      level: "error",
      code: "rpc-connection-failed",
      reason: "gave up",
      msg: "RPC Connection Failed",
      // pino's err serializer follows the cause chain, joining the messages with ": ".
      err: { type: "Error", message: "request to https://***@rpc.internal/v2 failed: Invalid URL" },
    });
  });

  it("reads a config file that starts with a UTF-8 byte order mark", async () => {
    const path = join(dir, "bom.json");
    await writeFile(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(EXAMPLE)]));
    expect((await cli(["validate", path])).code).toBe(0);
  });

  it("reports an INDEXER_CONFIG of a length no base64 has as not base64", async () => {
    expect(await cli(["validate"], { INDEXER_CONFIG: "Q" })).toMatchObject({
      code: 1,
      err: "Invalid indexer config:\n  - INDEXER_CONFIG must be base64 of the config file\n",
    });
  });

  it("rejects the example's placeholder key and RPC URL", async () => {
    const env = { RPC_URL: "http://127.0.0.1:1", PRICE_API_KEY: "p", STATE_KEY_PREFIX: "pwcli" };
    const badKey = await cli(["run", "--config", EXAMPLE], { ...env, POINTWISE_API_KEY: "pw_live_EXAMPLE_KEY_DO_NOT_USE" });
    expect(badKey.code).toBe(1);
    expect(badKey.logs.find((l) => l.level === "error")?.msg).toBe("Invalid API Key");
    const badRpc = await cli(["run", "--config", EXAMPLE], {
      ...env,
      POINTWISE_API_KEY: "a-campaign-key",
      RPC_URL: "https://rpc.example.invalid/v2/REPLACE_WITH_YOUR_RPC_KEY",
    });
    expect(badRpc.logs.find((l) => l.level === "error")?.msg).toBe("RPC Connection Failed");
    const badPrice = await cli(["run", "--config", EXAMPLE], { ...env, POINTWISE_API_KEY: "a-campaign-key", PRICE_API_KEY: "your-price-api-key" });
    expect(badPrice.code).toBe(1);
    expect(badPrice.logs.find((l) => l.level === "error")?.msg).toBe("PRICE_API_KEY is an example value; use a key of the price API");
  });
});

describe("adapter address params", () => {
  // The Uniswap V2 USDC/WETH pair as Etherscan writes it (EIP-55), and the same with its last letter's case flipped.
  const PAIR = "0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc";
  const TYPO = "0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9dc";
  const CHECKSUM = "has a bad EIP-55 checksum; check the address or write it in lower case";

  it.each<[string, Record<string, unknown>, string]>([
    ["amm-v2", { poolAddress: TYPO, trackSwaps: true }, "poolAddress"],
    ["amm-v3", { poolAddress: TYPO, trackSwaps: true }, "poolAddress"],
    ["amm-v3", { poolAddress: PAIR, positionManagerAddress: TYPO, trackLP: true }, "positionManagerAddress"],
    ["erc20-holdings", { tokenAddress: TYPO }, "tokenAddress"],
    ["lending", { poolAddress: TYPO, trackSupply: true }, "poolAddress"],
    ["lending", { poolAddress: PAIR, assets: [PAIR.toLowerCase(), TYPO], trackSupply: true }, "assets[1]"],
    ["vault", { vaultAddress: TYPO, version: "v2" }, "vaultAddress"],
  ])("%s refuses %j naming the param with a bad checksum", async (adapterId, params, field) => {
    const path = await configFile(`checksum-${adapterId}-${field}.json`, (c) => (c.adapterConfig = { adapterId, params }));
    expect(await cli(["validate", path])).toMatchObject({ code: 1, err: `Invalid indexer config:\n  - adapterConfig.params.${field} ${CHECKSUM}\n` });
  });

  it("takes the checksummed, the lowercase and the uppercase address", async () => {
    for (const address of [PAIR, PAIR.toLowerCase(), `0x${PAIR.slice(2).toUpperCase()}`]) {
      const path = await configFile("checksum-good.json", (c) => (c.adapterConfig.params.poolAddress = address));
      expect((await cli(["validate", path])).code).toBe(0);
    }
  });
});

describe("the market price client", () => {
  const TOKEN = "0x1111111111111111111111111111111111111111";
  const withFeed = (priceFeed: unknown) => {
    const config = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    config.assetFeedConfig = [{ match: { key: TOKEN }, config: { assetType: "erc20", priceFeed } }];
    return buildConfig(config);
  };
  const MARKET = { kind: "market", id: "ethereum" };
  const PEG = { kind: "pegged", usdPegValue: 1 };

  it.each([
    ["a market feed", MARKET, true],
    ["a market token of a concentrated-liquidity position", { kind: "ammv3position", token0: PEG, token1: MARKET }, true],
    ["a vault share over a market underlying", { kind: "vaultshare", version: "v2", underlying: MARKET }, true],
    ["a Balancer pool with one market token", { kind: "balancerv2nav", tokens: { [TOKEN]: PEG, "0x2222222222222222222222222222222222222222": MARKET } }, true],
    ["pegged feeds only", { kind: "vaultshare", version: "v1", underlying: PEG }, false],
  ])("is made for %s: %s", (_what, feed, expected) => {
    expect(needsMarketPrices(withFeed(feed))).toBe(expected);
  });
});

describe("adapter conformance", () => {
  it.each(ADAPTERS.map((a) => [a.id, a] as const))("%s has a valid identity, semver version and parameter schema", (id, adapter) => {
    expect(id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(isSemver(adapter.version)).toBe(true);
    expect(adapter.description.length).toBeGreaterThan(10);
    expect(createRegistry().get(id)).toBe(adapter);
    // Empty parameters are never enough: every adapter needs to know what to watch.
    const empty = adapter.paramsSchema.safeParse({});
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.every((i) => i.message.length > 0)).toBe(true);
  });
});

// Config hashes: canonical JSON, the short hash, and which config changes start a fresh namespace.
import { createHash } from "node:crypto";
import { type Config, TOKEN, validateEdited } from "../testing/config";
import { adapterConfigHash, canonicalJson, configHash, shortHash } from "./hash";
import type { IndexerConfig } from "./schema";

/** The first 16 hex characters of SHA-256 over `text`, computed here rather than by the code under test. */
function sha16(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The validated base config after `edit`. */
function config(edit: (c: Config) => void = () => {}): IndexerConfig {
  const result = validateEdited(edit);
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("; "));
  return result.config;
}

describe("canonicalJson", () => {
  it("sorts keys at every level, keeps array order and drops undefined members", () => {
    const value = { b: [3, { z: 1, a: null }], a: { d: "x", c: true }, u: undefined };
    expect(canonicalJson(value)).toBe('{"a":{"c":true,"d":"x"},"b":[3,{"a":null,"z":1}]}');
  });

  it("gives equal text for equal values written in another key order", () => {
    expect(canonicalJson({ x: { q: [1, 2], p: "s" }, w: 0 })).toBe(canonicalJson({ w: 0, x: { p: "s", q: [1, 2] } }));
  });

  it("keeps the order of array elements", () => {
    expect(canonicalJson([2, 1])).toBe("[2,1]");
  });

  it("orders keys by character code, not by locale (capitals before '_' before lowercase)", () => {
    expect(canonicalJson({ a: 3, _: 2, B: 1 })).toBe('{"B":1,"_":2,"a":3}');
  });

  it("sorts an object of 100 keys given in scrambled order", () => {
    const names = Array.from({ length: 100 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    const scrambled = Object.fromEntries(names.map((_, i) => names[(i * 37) % 100] as string).map((name) => [name, 1]));
    expect(Object.keys(scrambled)[1]).toBe("k37");
    expect(canonicalJson(scrambled)).toBe(`{${names.map((name) => `"${name}":1`).join(",")}}`);
  });

  it("writes strings, numbers, booleans and null as JSON does", () => {
    expect(canonicalJson(['a"b', 1.5, false, null])).toBe('["a\\"b",1.5,false,null]');
  });
});

describe("shortHash", () => {
  it("is the first 16 hex characters of SHA-256 over the canonical JSON", () => {
    expect(shortHash({ b: 1, a: [1, 2] })).toBe(sha16('{"a":[1,2],"b":1}'));
    expect(shortHash({ b: 1, a: [1, 2] })).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("configHash", () => {
  it("hashes the indexer's identity, range start, pricing, sinks, adapter and feeds", () => {
    const canonical =
      '{"adapter":{"adapterId":"hold-test","params":{"activity":"hold","token":"0x1111111111111111111111111111111111111111"}},' +
      '"assetFeedConfig":[{"config":{"assetType":"erc20","priceFeed":{"kind":"pegged","usdPegValue":1}},"match":{"key":"0x1111111111111111111111111111111111111111"}}],' +
      '"chainId":1,"flushMs":3600000,"fromBlock":100,"indexerId":"my-indexer","kind":"evm","pricingRange":{"fromBlock":150,"type":"block"},' +
      '"sinks":[{"json":true,"sinkType":"stdout"}]}';
    expect(configHash(config())).toBe(sha16(canonical));
  });

  it("hashes a config without fromBlock or pricingRange with both as null", () => {
    const minimal = config((c) => {
      c.range = {};
      delete c.pricingRange;
      c.sinkConfig.sinks = [{ sinkType: "stdout" }];
      c.adapterConfig = { adapterId: "no-params" };
      delete c.assetFeedConfig;
    });
    const canonical =
      '{"adapter":{"adapterId":"no-params","params":{}},"assetFeedConfig":[],"chainId":1,"flushMs":3600000,"fromBlock":null,' +
      '"indexerId":"my-indexer","kind":"evm","pricingRange":null,"sinks":[{"json":false,"sinkType":"stdout"}]}';
    expect(configHash(minimal)).toBe(sha16(canonical));
  });

  it.each<[string, (c: Config) => void]>([
    ["indexerId", (c) => (c.indexerId = "other-indexer")],
    ["flushMs", (c) => (c.flushMs = 7_200_000)],
    ["chainId", (c) => (c.network.chainId = 8453)],
    ["fromBlock", (c) => (c.range.fromBlock = 101)],
    ["pricingRange", (c) => (c.pricingRange = { type: "block", fromBlock: 151 })],
    ["sinks", (c) => (c.sinkConfig.sinks = [{ sinkType: "stdout", json: false }])],
    ["adapter params", (c) => (c.adapterConfig.params = { token: TOKEN, activity: "stake" })],
    ["assetFeedConfig", (c) => (c.assetFeedConfig = [])],
  ])("starts a fresh namespace when %s changes", (_field, edit) => {
    expect(configHash(config(edit))).not.toBe(configHash(config()));
  });

  it.each<[string, (c: Config) => void]>([
    ["rpcUrl changes", (c) => (c.network.rpcUrl = "https://other-rpc.example.org")],
    ["gatewayUrl is removed", (c) => delete c.network.gatewayUrl],
    ["finality changes", (c) => (c.network.finality = 12)],
    ["toBlock is raised", (c) => (c.range.toBlock = 900)],
    ["toBlock is removed", (c) => delete c.range.toBlock],
    ["keys are written in another order", (c) => Object.assign(c, { network: { rpcUrl: c.network.rpcUrl, chainId: 1, gatewayUrl: c.network.gatewayUrl } })],
  ])("resumes the same state when %s", (_change, edit) => {
    expect(configHash(config(edit))).toBe(configHash(config()));
  });
});

describe("adapterConfigHash", () => {
  it("hashes the adapter id and its parsed params only", () => {
    const canonical = '{"adapterId":"hold-test","params":{"activity":"hold","token":"0x1111111111111111111111111111111111111111"}}';
    expect(adapterConfigHash(config())).toBe(sha16(canonical));
    expect(adapterConfigHash(config((c) => (c.indexerId = "other-indexer")))).toBe(sha16(canonical));
  });
});

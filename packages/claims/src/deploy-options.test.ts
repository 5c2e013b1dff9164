// Settings of the deploy script: flags over environment, every malformed value, and the refusal of public or made-up keys off chain 31337.
import { ConfigError } from "@pointwise/errors";
import { Wallet } from "ethers";
import { checkDeployKeys, type DeployOptions, parseDeployOptions, whyUnsafeKey } from "./deploy-options";

// hardhat's account #0 and #1 (published in hardhat's documentation; the mnemonic "test test ... junk").
const HARDHAT_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const HARDHAT_ADDRESS_1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SIGNER = "0x1111111111111111111111111111111111111111";

const env = (over: Record<string, string | undefined> = {}) => ({
  CLAIMS_RPC_URL: "http://127.0.0.1:8545",
  CLAIMS_DEPLOYER_KEY: Wallet.createRandom().privateKey,
  CLAIMS_TOKEN: TOKEN,
  CLAIMS_VOUCHER_SIGNER: SIGNER,
  ...over,
});

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe("config-invalid");
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("parseDeployOptions", () => {
  it("reads the environment and checksums the addresses", () => {
    const e = env({ CLAIMS_TOKEN: TOKEN.toLowerCase() });
    expect(parseDeployOptions([], e)).toEqual({
      rpcUrl: "http://127.0.0.1:8545",
      deployerKey: e.CLAIMS_DEPLOYER_KEY,
      token: TOKEN,
      voucherSigner: SIGNER,
      owner: undefined,
    });
  });

  it("prefers flags, in both --flag value and --flag=value forms", () => {
    const options = parseDeployOptions(["--rpc-url", "https://rpc.example.org/v1", `--owner=${SIGNER}`, "--token", SIGNER], env());
    expect(options).toMatchObject({ rpcUrl: "https://rpc.example.org/v1", owner: SIGNER, token: SIGNER });
  });

  it.each([
    ["CLAIMS_RPC_URL", { CLAIMS_RPC_URL: undefined }, "CLAIMS_RPC_URL (or --rpc-url) is required"],
    ["CLAIMS_DEPLOYER_KEY", { CLAIMS_DEPLOYER_KEY: "" }, "CLAIMS_DEPLOYER_KEY (or --deployer-key) is required"],
    ["CLAIMS_TOKEN", { CLAIMS_TOKEN: undefined }, "CLAIMS_TOKEN (or --token) is required"],
    ["CLAIMS_VOUCHER_SIGNER", { CLAIMS_VOUCHER_SIGNER: undefined }, "CLAIMS_VOUCHER_SIGNER (or --voucher-signer) is required"],
  ])("requires %s", (_name, over, text) => {
    expect(configError(() => parseDeployOptions([], env(over)))).toContain(text);
  });

  it.each([
    ["an RPC URL that is no URL", { CLAIMS_RPC_URL: "localhost:8545" }, "CLAIMS_RPC_URL must be an http(s) URL"],
    ["a websocket RPC URL", { CLAIMS_RPC_URL: "ws://127.0.0.1:8545" }, "CLAIMS_RPC_URL must be an http(s) URL"],
    ["a short key", { CLAIMS_DEPLOYER_KEY: "0x1234" }, "CLAIMS_DEPLOYER_KEY must be a 0x-prefixed 32-byte hex private key"],
    ["a malformed token", { CLAIMS_TOKEN: "0x5FbDB2315678afecb367f032d93F642f64180aa" }, "CLAIMS_TOKEN must be a 0x-prefixed 20-byte EVM address"],
    ["a token with a wrong checksum", { CLAIMS_TOKEN: "0x5FBDB2315678afecb367f032d93F642f64180aa3" }, "CLAIMS_TOKEN must be"],
    ["a malformed signer", { CLAIMS_VOUCHER_SIGNER: "signer" }, "CLAIMS_VOUCHER_SIGNER must be"],
    ["a malformed owner", { CLAIMS_OWNER: "0x12" }, "CLAIMS_OWNER must be"],
  ])("rejects %s", (_name, over, text) => {
    expect(configError(() => parseDeployOptions([], env(over)))).toContain(text);
  });

  it("rejects an unknown flag and a flag without value", () => {
    expect(configError(() => parseDeployOptions(["--tokn", TOKEN], env()))).toContain("unknown option --tokn");
    expect(configError(() => parseDeployOptions(["--token"], env()))).toContain("--token needs a value");
  });
});

describe("checkDeployKeys", () => {
  const options = (over: Partial<DeployOptions> = {}): DeployOptions => ({
    rpcUrl: "http://127.0.0.1:8545",
    deployerKey: Wallet.createRandom().privateKey,
    token: TOKEN,
    voucherSigner: SIGNER,
    owner: undefined,
    ...over,
  });

  it("accepts a random key and signer on any chain, and test keys on the local chain 31337", () => {
    expect(() => checkDeployKeys(options(), 1n)).not.toThrow();
    expect(() => checkDeployKeys(options({ deployerKey: HARDHAT_KEY_0, voucherSigner: HARDHAT_ADDRESS_1, owner: HARDHAT_ADDRESS_1 }), 31337n)).not.toThrow();
  });

  it.each([
    ["hardhat's account #0 key", { deployerKey: HARDHAT_KEY_0 }, "CLAIMS_DEPLOYER_KEY is a public test key"],
    ["a key of one repeated digit", { deployerKey: `0x${"1".repeat(64)}` }, "CLAIMS_DEPLOYER_KEY is an obviously made-up key"],
    ["a repeated pattern", { deployerKey: `0x${"0123456789abcdef".repeat(4)}` }, "repeated pattern"],
    ["a key of few distinct digits", { deployerKey: `0x${"0".repeat(60)}a1b2` }, "fewer than 8 distinct hex digits"],
    ["a number below 2^128", { deployerKey: `0x${"0".repeat(32)}0123456789abcdeffedcba9876543210` }, "below 2^128"],
    ["a public test account as voucher signer", { voucherSigner: HARDHAT_ADDRESS_1 }, "CLAIMS_VOUCHER_SIGNER is a public test account"],
    ["a public test account as owner", { owner: HARDHAT_ADDRESS_1 }, "CLAIMS_OWNER is a public test account"],
  ])("refuses %s off the local chain", (_name, over, text) => {
    const message = configError(() => checkDeployKeys(options(over), 8453n));
    expect(message).toContain(text);
    expect(message).toContain("this chain is 8453");
  });
});

describe("whyUnsafeKey", () => {
  it("finds nothing wrong with random keys", () => {
    for (let i = 0; i < 20; i++) expect(whyUnsafeKey(Wallet.createRandom().privateKey)).toBeUndefined();
  });

  it("names hardhat's 20th account (#19) a public test key", () => {
    expect(whyUnsafeKey("0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e")).toContain("public test key");
  });
});

// Settings of `npm run claims:deploy` from flags and environment, and the refusal of well-known or made-up keys off the local chain.
import { ConfigError } from "@pointwise/errors";
import { getAddress, HDNodeWallet, isAddress, Wallet } from "ethers";

/** What the deploy script needs, validated. */
export interface DeployOptions {
  rpcUrl: string;
  deployerKey: string;
  token: string;
  voucherSigner: string;
  /** Owner of the contract (publishes roots, rotates the signer); the deployer unless set. */
  owner: string | undefined;
}

/** The chain id of hardhat's (and anvil's) local chain, the only chain on which test keys are accepted. */
export const LOCAL_CHAIN_ID = 31337n;

// flag -> environment variable
const SETTINGS = {
  "--rpc-url": "CLAIMS_RPC_URL",
  "--deployer-key": "CLAIMS_DEPLOYER_KEY",
  "--token": "CLAIMS_TOKEN",
  "--voucher-signer": "CLAIMS_VOUCHER_SIGNER",
  "--owner": "CLAIMS_OWNER",
} as const;

/** Usage text of the deploy script. */
export const DEPLOY_USAGE = `usage: npm run claims:deploy -- [--rpc-url URL] [--token ADDRESS] [--voucher-signer ADDRESS] [--owner ADDRESS] [--deployer-key KEY]
each flag may instead be given by its variable: ${Object.entries(SETTINGS)
  .map(([flag, env]) => `${flag} ${env}`)
  .join(", ")}
(prefer CLAIMS_DEPLOYER_KEY to --deployer-key: a flag is visible to every user of the machine in the process list)`;

/** Reads the settings from flags (`--token 0x..` or `--token=0x..`), falling back to the environment; throws ConfigError naming what is wrong. */
export function parseDeployOptions(argv: readonly string[], env: Record<string, string | undefined>): DeployOptions {
  const given: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!(flag in SETTINGS)) throw new ConfigError(`unknown option ${flag}\n${DEPLOY_USAGE}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "") throw new ConfigError(`${flag} needs a value`);
    given[flag] = value;
  }
  const read = (flag: keyof typeof SETTINGS, required: boolean): string | undefined => {
    const value = given[flag] ?? env[SETTINGS[flag]];
    if (required && (value === undefined || value === "")) throw new ConfigError(`${SETTINGS[flag]} (or ${flag}) is required\n${DEPLOY_USAGE}`);
    return value === "" ? undefined : value;
  };
  const rpcUrl = read("--rpc-url", true) as string;
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    throw new ConfigError("CLAIMS_RPC_URL must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError("CLAIMS_RPC_URL must be an http(s) URL");
  const deployerKey = read("--deployer-key", true) as string;
  try {
    new Wallet(deployerKey);
  } catch {
    throw new ConfigError("CLAIMS_DEPLOYER_KEY must be a 0x-prefixed 32-byte hex private key");
  }
  const owner = read("--owner", false);
  return {
    rpcUrl,
    deployerKey,
    token: checkedAddress(read("--token", true) as string, "CLAIMS_TOKEN"),
    voucherSigner: checkedAddress(read("--voucher-signer", true) as string, "CLAIMS_VOUCHER_SIGNER"),
    owner: owner === undefined ? undefined : checkedAddress(owner, "CLAIMS_OWNER"),
  };
}

/**
 * Refuses, on any chain but the local 31337, a deployer key that is public (hardhat's and anvil's test accounts)
 * or made up (few distinct digits, a short repeated pattern, a tiny number), and a signer or owner address of a
 * public test account: whoever knows that key could sign vouchers or publish roots.
 */
export function checkDeployKeys(options: DeployOptions, chainId: bigint): void {
  if (chainId === LOCAL_CHAIN_ID) return;
  const why = whyUnsafeKey(options.deployerKey);
  if (why) throw new ConfigError(`CLAIMS_DEPLOYER_KEY is ${why}; it is accepted on the local chain ${LOCAL_CHAIN_ID} only (this chain is ${chainId})`);
  const known = knownTestAddresses();
  if (known.has(options.voucherSigner.toLowerCase())) {
    throw new ConfigError(
      `CLAIMS_VOUCHER_SIGNER is a public test account (its key is published); accepted on the local chain ${LOCAL_CHAIN_ID} only (this chain is ${chainId})`,
    );
  }
  if (options.owner && known.has(options.owner.toLowerCase())) {
    throw new ConfigError(
      `CLAIMS_OWNER is a public test account (its key is published); accepted on the local chain ${LOCAL_CHAIN_ID} only (this chain is ${chainId})`,
    );
  }
}

/** Why a private key must not guard real funds ("a public test key", "an obviously made-up key"), or undefined when none is seen. */
export function whyUnsafeKey(privateKey: string): string | undefined {
  const hex = privateKey.toLowerCase().replace(/^0x/, "");
  if (knownTestKeys().has(hex)) return "a public test key (hardhat/anvil mnemonic)";
  if (new Set(hex).size < 8) return "an obviously made-up key (fewer than 8 distinct hex digits)";
  for (let period = 1; period <= 16; period++) {
    if (
      hex ===
      hex
        .slice(0, period)
        .repeat(Math.ceil(hex.length / period))
        .slice(0, hex.length)
    )
      return "an obviously made-up key (a repeated pattern)";
  }
  if (BigInt(`0x${hex}`) < 1n << 128n) return "an obviously made-up key (a number below 2^128)";
  return undefined;
}

const TEST_ACCOUNTS = 20;
let testKeys: Set<string> | undefined;
let testAddresses: Set<string> | undefined;

// The first accounts of "test test ... junk" (hardhat's and anvil's default accounts), derived rather than listed.
function deriveTestAccounts(): void {
  const base = HDNodeWallet.fromPhrase("test test test test test test test test test test test junk", undefined, "m/44'/60'/0'/0");
  testKeys = new Set();
  testAddresses = new Set();
  for (let i = 0; i < TEST_ACCOUNTS; i++) {
    const w = base.deriveChild(i);
    testKeys.add(w.privateKey.slice(2).toLowerCase());
    testAddresses.add(w.address.toLowerCase());
  }
}

function knownTestKeys(): Set<string> {
  if (!testKeys) deriveTestAccounts();
  return testKeys as Set<string>;
}

function knownTestAddresses(): Set<string> {
  if (!testAddresses) deriveTestAccounts();
  return testAddresses as Set<string>;
}

function checkedAddress(value: string, name: string): string {
  if (!value.startsWith("0x") || !isAddress(value))
    throw new ConfigError(`${name} must be a 0x-prefixed 20-byte EVM address (checksummed or lowercase), got "${value}"`);
  return getAddress(value);
}

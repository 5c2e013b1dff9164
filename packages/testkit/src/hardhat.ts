// A local hardhat@2 node run as a child process on a free 127.0.0.1 port, with funded accounts, for chain tests.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { FetchRequest, HDNodeWallet, JsonRpcProvider, Network, Wallet } from "ethers";
import { freePort } from "./processes";

/** The mnemonic of hardhat's well-known test accounts (public: never hold anything of value with them). */
export const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";

/** How the node is set up; every field has a default. */
export interface HardhatNodeOptions {
  /** Chain id (31337 unless set). */
  chainId?: number;
  /** Number of funded accounts derived from HARDHAT_MNEMONIC (10 unless set). */
  accounts?: number;
  /** Balance of each account in wei (10 000 ether unless set). */
  balanceWei?: bigint;
  /** Timestamp of the genesis block, ISO 8601 (the current time unless set). */
  initialDate?: string;
  /** Milliseconds to wait for the node to answer (30 000 unless set). */
  startTimeoutMs?: number;
}

/** A funded account of the node: its address and private key. */
export interface HardhatAccount {
  address: string;
  privateKey: string;
}

/** A running hardhat node. */
export interface HardhatNode {
  url: string;
  chainId: bigint;
  provider: JsonRpcProvider;
  accounts: readonly HardhatAccount[];
  /** A wallet of account `index` connected to the node. */
  wallet(index: number): Wallet;
  /** Sends a raw JSON-RPC request (evm_mine, evm_increaseTime, evm_snapshot, ...). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Stops the node and removes its temporary folder. */
  stop(): Promise<void>;
}

/**
 * A provider for a local test node that opens a connection per request. Node's agent keeps idle connections, and the
 * node closes one after 5 s idle; a burst of calls after a pause (a test checking its results) can pick one as it
 * closes and fail with "socket hang up", which a busy machine makes likely. Local connections cost next to nothing.
 */
export function localChainProvider(url: string, chainId: number): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.getUrlFunc = FetchRequest.createGetUrlFunc({ agent: new http.Agent({ keepAlive: false }) });
  const network = Network.from(chainId);
  return new JsonRpcProvider(request, network, { staticNetwork: network, cacheTimeout: -1 });
}

const running = new Set<ChildProcess>();
// Nodes still running when this process exits (a test that failed before stopping them) are killed with it.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Starts a hardhat@2 node on a free 127.0.0.1 port and waits until it answers JSON-RPC. */
export async function startHardhatNode(options: HardhatNodeOptions = {}): Promise<HardhatNode> {
  const chainId = options.chainId ?? 31337;
  const count = options.accounts ?? 10;
  const balance = options.balanceWei ?? 10_000n * 10n ** 18n;
  // hardhat reads its settings from a config file; each node gets its own folder (hardhat writes a cache beside it).
  const dir = mkdtempSync(path.join(os.tmpdir(), "pointwise-hardhat-"));
  const config = {
    networks: {
      hardhat: {
        chainId,
        loggingEnabled: false,
        accounts: { mnemonic: HARDHAT_MNEMONIC, count, accountsBalance: balance.toString() },
        ...(options.initialDate ? { initialDate: options.initialDate } : {}),
      },
    },
  };
  const configFile = path.join(dir, "hardhat.config.js");
  writeFileSync(configFile, `module.exports = ${JSON.stringify(config)};\n`);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [require.resolve("hardhat/internal/cli/cli.js"), "node", "--config", configFile, "--hostname", "127.0.0.1", "--port", String(port)],
    {
      // hardhat insists on being installed in the project it runs for; this package's folder resolves it.
      cwd: path.join(__dirname, ".."),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    },
  );
  running.add(child);
  let output = "";
  const collect = (d: Buffer) => {
    if (output.length < 20_000) output += d.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const url = `http://127.0.0.1:${port}`;
  const provider = localChainProvider(url, chainId);
  const stop = async (): Promise<void> => {
    provider.destroy();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    running.delete(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`hardhat node exited with ${child.exitCode}: ${output}`);
    }
    try {
      await provider.send("eth_chainId", []);
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`hardhat node did not answer on ${url} within ${options.startTimeoutMs ?? 30_000} ms: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const accounts = Array.from({ length: count }, (_, i) => {
    const w = HDNodeWallet.fromPhrase(HARDHAT_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`);
    return { address: w.address, privateKey: w.privateKey };
  });
  return {
    url,
    chainId: BigInt(chainId),
    provider,
    accounts,
    wallet(index) {
      const account = accounts[index];
      if (!account) throw new Error(`account ${index} does not exist: the node has ${count} accounts`);
      return new Wallet(account.privateKey, provider);
    },
    rpc: (method, params = []) => provider.send(method, params),
    stop,
  };
}

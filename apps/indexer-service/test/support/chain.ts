// Test support for the indexer: a local hardhat node started as a child process on a free port.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { localChainProvider } from "@pointwise/testkit";
import type { JsonRpcProvider } from "ethers";
import { freePort } from "./net";

/** A local hardhat node run as a child process on 127.0.0.1. */
export interface LocalChain {
  url: string;
  provider: JsonRpcProvider;
  /** Sends a raw JSON-RPC request (evm_mine, evm_increaseTime, ...). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

const HARDHAT_CLI = require.resolve("hardhat/internal/cli/cli.js");
const CONFIG = join(__dirname, "..", "chain", "hardhat.config.js");

/** Starts a hardhat node on a free port and waits until it answers. */
export async function startChain(): Promise<LocalChain> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [HARDHAT_CLI, "node", "--config", CONFIG, "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: join(__dirname, "..", ".."),
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const provider = localChainProvider(url, 31337);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited: ${output}`);
    try {
      await provider.send("eth_chainId", []);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`hardhat node did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    provider,
    rpc: (method, params = []) => provider.send(method, params),
    stop: async () => {
      provider.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

// Test support for portal-api: a hardhat node on a free port and an EIP-1271 wallet contract compiled with solc-js and deployed on it.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "@pointwise/testkit";
import { ContractFactory, JsonRpcProvider, type JsonRpcSigner, Network } from "ethers";

/** A local hardhat node run as a child process on 127.0.0.1. */
export interface LocalChain {
  url: string;
  provider: JsonRpcProvider;
  /** Deploys OwnedWallet for `owner`; returns its address. */
  deployWallet(owner: string): Promise<string>;
  stop(): Promise<void>;
}

const HARDHAT_CLI = require.resolve("hardhat/internal/cli/cli.js");

function compileWallet(): { abi: unknown[]; bytecode: string } {
  const solc = require("solc") as { compile(input: string): string };
  const content = readFileSync(join(__dirname, "contracts", "OwnedWallet.sol"), "utf8");
  const input = {
    language: "Solidity",
    sources: { "OwnedWallet.sol": { content } },
    settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  const c = output.contracts["OwnedWallet.sol"].OwnedWallet;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/** Starts a hardhat node and waits until it answers. */
export async function startChain(): Promise<LocalChain> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [HARDHAT_CLI, "node", "--config", join(__dirname, "chain", "hardhat.config.js"), "--hostname", "127.0.0.1", "--port", String(port)],
    {
      cwd: join(__dirname, ".."),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    },
  );
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const network = Network.from(31337);
  const provider = new JsonRpcProvider(url, network, { staticNetwork: network, cacheTimeout: -1 });
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
  const compiled = compileWallet();
  return {
    url,
    provider,
    async deployWallet(owner) {
      const signer: JsonRpcSigner = await provider.getSigner(0);
      const contract = await new ContractFactory(compiled.abi as never, compiled.bytecode, signer).deploy(owner);
      await contract.waitForDeployment();
      return contract.getAddress();
    },
    async stop() {
      provider.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

// Test support for portal-api: a hardhat node (testkit's) with an EIP-1271 wallet contract compiled with solc-js and deployed on it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSolidity } from "@pointwise/claims";
import { startHardhatNode } from "@pointwise/testkit";
import { ContractFactory, type JsonRpcProvider } from "ethers";

/** A local hardhat node on 127.0.0.1 that deploys the test wallet contract. */
export interface LocalChain {
  url: string;
  provider: JsonRpcProvider;
  /** Deploys OwnedWallet for `owner`; returns its address. */
  deployWallet(owner: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a hardhat node, waits until it answers, and compiles the wallet contract. */
export async function startChain(): Promise<LocalChain> {
  const node = await startHardhatNode();
  const source = readFileSync(join(__dirname, "contracts", "OwnedWallet.sol"), "utf8");
  const compiled = compileSolidity({ sources: { "OwnedWallet.sol": source } }).OwnedWallet;
  if (compiled === undefined) throw new Error("OwnedWallet.sol has no OwnedWallet contract");
  return {
    url: node.url,
    provider: node.provider,
    async deployWallet(owner) {
      const contract = await new ContractFactory(compiled.abi as never, compiled.bytecode, node.wallet(0)).deploy(owner);
      await contract.waitForDeployment();
      return contract.getAddress();
    },
    stop: () => node.stop(),
  };
}

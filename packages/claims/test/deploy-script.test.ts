// `npm run claims:deploy` (scripts/deploy-claims.ts) run as an operator would, against a hardhat node posing as a non-local chain (id 1337).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type HardhatNode, repoRoot, startHardhatNode } from "@pointwise/testkit";
import { Contract, ContractFactory, parseEther, Wallet } from "ethers";
import { CLAIMS_ABI, compileSolidity } from "../src";

const SCRIPT = path.join(repoRoot, "scripts", "deploy-claims.ts");

let node: HardhatNode;
let token: string;
let deployer: Wallet; // a fresh key funded by the node: the only kind accepted off chain 31337
const signer = Wallet.createRandom();

function run(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLAIMS_")));
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", SCRIPT, ...args], { cwd: repoRoot, env: { ...clean, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  node = await startHardhatNode({ chainId: 1337, accounts: 2 });
  const { TestToken } = compileSolidity({ sources: { "TestToken.sol": readFileSync(path.join(__dirname, "contracts", "TestToken.sol"), "utf8") } });
  if (!TestToken) throw new Error("TestToken did not compile");
  const deployed = await new ContractFactory(TestToken.abi as never, TestToken.bytecode, node.wallet(0)).deploy(1000n);
  await deployed.waitForDeployment();
  token = await deployed.getAddress();
  deployer = Wallet.createRandom().connect(node.provider) as unknown as Wallet;
  await (await node.wallet(0).sendTransaction({ to: deployer.address, value: parseEther("10") })).wait();
}, 120_000);

afterAll(async () => {
  await node?.stop();
});

describe("claims:deploy", () => {
  it("deploys with a fresh key and prints the contract address alone on stdout", async () => {
    const result = await run(["--token", token, "--voucher-signer", signer.address], { CLAIMS_RPC_URL: node.url, CLAIMS_DEPLOYER_KEY: deployer.privateKey });
    expect(result.stderr).toContain("deploying PointwiseClaims on chain 1337");
    expect(result.code).toBe(0);
    const address = result.stdout.trim();
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const claims = new Contract(address, CLAIMS_ABI, node.provider);
    expect(await claims.getFunction("token")()).toBe(token);
    expect(await claims.getFunction("voucherSigner")()).toBe(signer.address);
    expect(await claims.getFunction("owner")()).toBe(deployer.address);
  });

  it("refuses hardhat's public key off the local chain, deploying nothing", async () => {
    const from = node.accounts[0]?.address as string;
    const nonce = await node.provider.getTransactionCount(from);
    const result = await run([], {
      CLAIMS_RPC_URL: node.url,
      CLAIMS_DEPLOYER_KEY: node.accounts[0]?.privateKey,
      CLAIMS_TOKEN: token,
      CLAIMS_VOUCHER_SIGNER: signer.address,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLAIMS_DEPLOYER_KEY is a public test key");
    expect(result.stderr).toContain("this chain is 1337");
    expect(result.stdout).toBe("");
    expect(await node.provider.getTransactionCount(from)).toBe(nonce);
  });

  it("refuses a public test account as voucher signer off the local chain", async () => {
    const result = await run([], {
      CLAIMS_RPC_URL: node.url,
      CLAIMS_DEPLOYER_KEY: deployer.privateKey,
      CLAIMS_TOKEN: token,
      CLAIMS_VOUCHER_SIGNER: node.accounts[1]?.address,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLAIMS_VOUCHER_SIGNER is a public test account");
  });

  it("refuses a token address without a contract", async () => {
    const result = await run([], {
      CLAIMS_RPC_URL: node.url,
      CLAIMS_DEPLOYER_KEY: deployer.privateKey,
      CLAIMS_TOKEN: Wallet.createRandom().address,
      CLAIMS_VOUCHER_SIGNER: signer.address,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/CLAIMS_TOKEN 0x[0-9a-fA-F]{40} has no contract code on chain 1337/);
  });

  it("names a missing setting and prints the usage", async () => {
    const result = await run([], { CLAIMS_RPC_URL: node.url, CLAIMS_DEPLOYER_KEY: deployer.privateKey, CLAIMS_VOUCHER_SIGNER: signer.address });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLAIMS_TOKEN (or --token) is required");
    expect(result.stderr).toContain("usage: npm run claims:deploy");
  });

  it("names the host but not the full URL of an RPC that does not answer", async () => {
    const result = await run([], {
      CLAIMS_RPC_URL: "http://127.0.0.1:9/v3/secret-api-key",
      CLAIMS_DEPLOYER_KEY: deployer.privateKey,
      CLAIMS_TOKEN: token,
      CLAIMS_VOUCHER_SIGNER: signer.address,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLAIMS_RPC_URL does not answer eth_chainId (host 127.0.0.1:9)");
    expect(result.stderr).not.toContain("secret-api-key");
  });

  it("prints the usage with --help", async () => {
    const result = await run(["--help"], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("CLAIMS_DEPLOYER_KEY");
  });
});

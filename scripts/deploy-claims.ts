// Deploys PointwiseClaims: `npm run claims:deploy -- --rpc-url URL --token ADDRESS --voucher-signer ADDRESS` (see docs/claims.md).
// The deployer key comes from CLAIMS_DEPLOYER_KEY (or --deployer-key). Prints the contract address alone on stdout.
import { checkDeployKeys, DEPLOY_USAGE, type DeployOptions, deployClaimsContract, parseDeployOptions } from "@pointwise/claims";
import { BaseError } from "@pointwise/errors";
import { FetchRequest, JsonRpcProvider, Network, Wallet } from "ethers";

/** Asks the node for its chain id, with a timeout; the error names the host only (RPC URLs often carry an API key). */
async function chainIdOf(rpcUrl: string): Promise<bigint> {
  const host = new URL(rpcUrl).host;
  const request = new FetchRequest(rpcUrl);
  request.body = { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] };
  request.timeout = 15_000;
  try {
    const response = await request.send();
    response.assertOk();
    return BigInt((response.bodyJson as { result: string }).result);
  } catch {
    throw new Error(`CLAIMS_RPC_URL does not answer eth_chainId (host ${host})`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${DEPLOY_USAGE}\n`);
    return;
  }
  const options: DeployOptions = parseDeployOptions(argv, process.env);
  const chainId = await chainIdOf(options.rpcUrl);
  checkDeployKeys(options, chainId);
  const network = Network.from(chainId);
  const provider = new JsonRpcProvider(options.rpcUrl, network, { staticNetwork: network });
  try {
    if ((await provider.getCode(options.token)) === "0x") throw new Error(`CLAIMS_TOKEN ${options.token} has no contract code on chain ${chainId}`);
    const deployer = new Wallet(options.deployerKey, provider);
    process.stderr.write(
      `deploying PointwiseClaims on chain ${chainId} from ${deployer.address} (token ${options.token}, voucher signer ${options.voucherSigner})\n`,
    );
    const address = await deployClaimsContract(deployer, { token: options.token, voucherSigner: options.voucherSigner, owner: options.owner });
    process.stderr.write(`deployed; owner ${options.owner ?? deployer.address}\n`);
    process.stdout.write(`${address}\n`);
  } finally {
    provider.destroy();
  }
}

main().catch((err: unknown) => {
  const message = err instanceof BaseError || err instanceof Error ? err.message : String(err);
  process.stderr.write(`claims deploy failed: ${message}\n`);
  process.exit(1);
});

// Test support: a local hardhat chain with an ERC-20 and a funded PointwiseClaims contract, and the claim settings that point at it.
import { CLAIMS_ABI, compileSolidity, deployClaimsContract } from "@pointwise/claims";
import { type HardhatNode, startHardhatNode } from "@pointwise/testkit";
import { Contract, ContractFactory, type HDNodeWallet, Wallet } from "ethers";

const E18 = 10n ** 18n;
const TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
contract RewardToken is ERC20 {
    constructor(uint256 supply) ERC20("Reward Token", "RWD") { _mint(msg.sender, supply); }
}
`;

/** The chain, its contracts and the settings admin-api and portal-api take to use them. */
export interface ClaimsChain {
  node: HardhatNode;
  token: Contract;
  claims: Contract;
  /** The voucher signer's key (portal-api's CLAIMS_VOUCHER_SIGNER_KEY). */
  voucherSignerKey: string;
  /** CLAIMS_RPC_URL, CLAIMS_CONTRACT, CLAIMS_CHAIN_ID and CLAIMS_PUBLISHER_KEY (the contract owner's key). */
  adminEnv: Record<string, string>;
  /** A new random wallet with 10 ETH (the service's keys are never the node's public test keys). */
  funded(): Promise<HDNodeWallet>;
}

/** Starts a hardhat node, deploys the token and the claim contract (owner: a fresh funded key) and funds the contract with 1000 tokens. */
export async function startClaimsChain(): Promise<ClaimsChain> {
  const node = await startHardhatNode();
  const funded = async () => {
    const w = Wallet.createRandom().connect(node.provider);
    await (await node.wallet(0).sendTransaction({ to: w.address, value: 10n * E18 })).wait();
    return w;
  };
  const owner = await funded();
  const voucherSigner = Wallet.createRandom();
  const { RewardToken } = compileSolidity({ sources: { "RewardToken.sol": TOKEN } });
  if (!RewardToken) throw new Error("RewardToken did not compile");
  const deployed = await new ContractFactory(RewardToken.abi as never, RewardToken.bytecode, owner).deploy(1_000_000n * E18);
  const token = new Contract(await deployed.getAddress(), RewardToken.abi as never, node.provider);
  const address = await deployClaimsContract(owner, { token: await token.getAddress(), voucherSigner: voucherSigner.address });
  await ((await (token.connect(owner) as Contract).getFunction("transfer")(address, 1000n * E18)) as { wait(): Promise<unknown> }).wait();
  return {
    node,
    token,
    claims: new Contract(address, CLAIMS_ABI as never, node.provider),
    voucherSignerKey: voucherSigner.privateKey,
    adminEnv: { CLAIMS_RPC_URL: node.url, CLAIMS_CONTRACT: address, CLAIMS_CHAIN_ID: node.chainId.toString(), CLAIMS_PUBLISHER_KEY: owner.privateKey },
    funded,
  };
}

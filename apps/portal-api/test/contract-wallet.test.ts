// Contract wallets (EIP-1271) sign in when PORTAL_EVM_RPC_URL names their chain: the wallet contract itself, deployed on a local hardhat chain, is asked.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Wallet } from "ethers";
import { createEvmChain } from "../src/wallet-evm";
import { type LocalChain, startChain } from "./chain";
import { type Harness, siweText, startPortal } from "./harness";

let chain: LocalChain;
let h: Harness;
let offline: Harness;
beforeAll(async () => {
  chain = await startChain();
  h = await startPortal({ PORTAL_EVM_CHAIN_IDS: "1,31337" }, createEvmChain(chain.url));
  offline = await startPortal({ PORTAL_EVM_CHAIN_IDS: "1,31337" });
}, 90_000);
afterAll(async () => {
  await h?.close();
  await offline?.close();
  await chain?.stop();
});

async function contractSignIn(target: Harness, walletAddress: string, signer: { signMessage(message: string): Promise<string> }, chainId = 31337) {
  const nonce = (await target.call("POST", "/auth/nonce", { campaign_id: target.campaignId })).body.nonce as string;
  const message = siweText({ address: walletAddress, nonce, chainId });
  return target.call("POST", "/auth/wallet", { campaign_id: target.campaignId, message, signature: await signer.signMessage(message) });
}

describe("EIP-1271 contract wallets", () => {
  it("signs in a contract wallet whose isValidSignature accepts its owner's signature, as the contract's address", async () => {
    const owner = Wallet.createRandom();
    const address = await chain.deployWallet(owner.address);
    const res = await contractSignIn(h, address, owner);
    expect(res.status).toBe(200);
    const { rows } = await h.deps.db.query<{ account_id: string }>("SELECT account_id FROM identity WHERE user_id = $1", [res.body.user_id]);
    expect(rows.map((r) => r.account_id)).toEqual([address.toLowerCase()]);
  });

  it("refuses a signature the contract rejects, a contract of another chain id, and any contract wallet without an RPC", async () => {
    const owner = Wallet.createRandom();
    const address = await chain.deployWallet(owner.address);
    const stranger = await contractSignIn(h, address, Wallet.createRandom());
    expect([stranger.status, stranger.body.error.code]).toEqual([401, "invalid-signature"]);
    expect((await contractSignIn(h, address, owner, 1)).body.error.code).toBe("invalid-signature");
    expect((await contractSignIn(offline, address, owner)).body.error.code).toBe("invalid-signature");
  });

  it("refuses an address without code (no contract) as invalid-signature, not as an error of the chain", async () => {
    const res = await contractSignIn(h, Wallet.createRandom().address, Wallet.createRandom());
    expect([res.status, res.body.error.code]).toEqual([401, "invalid-signature"]);
  });
});

// Signing in with a Solana wallet: ed25519 signatures made with tweetnacl keys over the EIP-4361-shaped message.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { base58 } from "@scure/base";
import nacl from "tweetnacl";
import { bearer, type Harness, participant, startPortal } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startPortal({ PORTAL_SOLANA_CLUSTERS: "mainnet,devnet" });
});
afterAll(() => h.close());

interface Fields {
  domain?: string;
  chain?: string;
  issuedAt?: Date;
  expiration?: Date | null;
}

/** A Solana sign-in message in the CAIP-122 layout wallets (Phantom, Solflare) show. */
function solanaText(address: string, nonce: string, f: Fields = {}): string {
  const issued = f.issuedAt ?? new Date();
  const lines = [
    `${f.domain ?? "portal.test"} wants you to sign in with your Solana account:`,
    address,
    "",
    "Sign in to the campaign.",
    "",
    "URI: https://portal.test",
    "Version: 1",
    `Chain ID: ${f.chain ?? "mainnet"}`,
    `Nonce: ${nonce}`,
    `Issued At: ${issued.toISOString()}`,
  ];
  const expiry = f.expiration === undefined ? new Date(issued.getTime() + 120_000) : f.expiration;
  if (expiry) lines.push(`Expiration Time: ${expiry.toISOString()}`);
  return lines.join("\n");
}

async function solanaBody(keys: nacl.SignKeyPair, f: Fields = {}) {
  const nonce = (await h.call("POST", "/auth/nonce", { campaign_id: h.campaignId })).body.nonce as string;
  const message = solanaText(base58.encode(keys.publicKey), nonce, f);
  const signature = base58.encode(nacl.sign.detached(new TextEncoder().encode(message), keys.secretKey));
  return { campaign_id: h.campaignId, wallet: "solana", message, signature };
}

describe("POST /auth/wallet (Solana)", () => {
  it("signs a Solana wallet in as a SOLANA_ADDRESS identity", async () => {
    const keys = nacl.sign.keyPair();
    const res = await h.call("POST", "/auth/wallet", await solanaBody(keys));
    expect(res.status).toBe(200);
    const me = await h.call("GET", "/me", undefined, bearer(res.body.access_token));
    expect(me.body.identities).toEqual([expect.objectContaining({ identity_type: "SOLANA_ADDRESS", account_id: base58.encode(keys.publicKey) })]);
  });

  it("refuses another key's signature, a tampered message, a replay, a wrong domain or cluster, and an expired message", async () => {
    const keys = nacl.sign.keyPair();
    const body = await solanaBody(keys);
    const other = nacl.sign.keyPair();
    const foreign = base58.encode(nacl.sign.detached(new TextEncoder().encode(body.message), other.secretKey));
    expect((await h.call("POST", "/auth/wallet", { ...body, signature: foreign })).body.error.code).toBe("invalid-signature");
    expect((await h.call("POST", "/auth/wallet", { ...body, message: body.message.replace("campaign", "campaigns") })).body.error.code).toBe(
      "invalid-signature",
    );
    expect((await h.call("POST", "/auth/wallet", body)).status).toBe(200);
    expect((await h.call("POST", "/auth/wallet", body)).body.error.code).toBe("nonce-used");
    expect((await h.call("POST", "/auth/wallet", await solanaBody(keys, { domain: "evil.test" }))).body.error.code).toBe("wrong-domain");
    expect((await h.call("POST", "/auth/wallet", await solanaBody(keys, { chain: "testnet" }))).body.error.code).toBe("wrong-chain");
    expect((await h.call("POST", "/auth/wallet", await solanaBody(keys, { chain: "devnet" }))).status).toBe(200);
    const expired = await solanaBody(keys, { issuedAt: new Date(Date.now() - 300_000), expiration: new Date(Date.now() - 1000) });
    expect((await h.call("POST", "/auth/wallet", expired)).body.error.code).toBe("message-expired");
    const bad = await h.call("POST", "/auth/wallet", { ...body, signature: "0xabc" });
    expect([bad.status, bad.body.error.code]).toEqual([401, "invalid-signature"]);
  });

  it("refuses a message that is not a Solana sign-in message with invalid-message", async () => {
    const keys = nacl.sign.keyPair();
    const body = await solanaBody(keys);
    const noNonce = body.message.replace(/\nNonce: .*/, "");
    const res = await h.call("POST", "/auth/wallet", { ...body, message: noNonce });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      400,
      "invalid-message",
      "message is not a Solana sign-in message: Nonce is missing",
    ]);
    const evmStyle = body.message.replace("Solana account", "Ethereum account");
    expect((await h.call("POST", "/auth/wallet", { ...body, message: evmStyle })).body.error.code).toBe("invalid-message");
  });

  it("links a Solana wallet to a user signed in with an EVM wallet", async () => {
    const evm = await participant(h);
    const keys = nacl.sign.keyPair();
    const { message, signature } = await solanaBody(keys);
    const linked = await h.call("POST", "/me/wallets", { wallet: "solana", message, signature }, evm.auth);
    expect(linked.status).toBe(200);
    expect(linked.body.identities.map((i: { identity_type: string }) => i.identity_type)).toEqual(["EVM_ADDRESS", "SOLANA_ADDRESS"]);
  });
});

// Token-claim rewards on a local hardhat chain: a user redeems points, the epoch's root is published, the user
// claims with the portal API's proof and the tokens arrive; a burn voucher is redeemed once and a replay refused.
import { generateKeyPairSync } from "node:crypto";
import { readEpoch } from "@pointwise/claims";
import { type AppProcess, type HardhatNode, seedScore, signInWithWallet, spawnApp, testServiceEnv } from "@pointwise/testkit";
import type { Contract, HDNodeWallet } from "ethers";
import { loadEnv } from "../src/env";
import { type ClaimsChain, startClaimsChain } from "./claims-chain-setup";
import { type Harness, type Operator, setUpCampaign, startHarness } from "./harness";

const E18 = 10n ** 18n;

let chain: ClaimsChain;
let node: HardhatNode;
let h: Harness;
let portal: AppProcess;
let op: Operator;
let token: Contract;
let claims: Contract;
let participant: HDNodeWallet;
let campaignId: string;

async function portalCall(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${portal.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape each endpoint answers.
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  chain = await startClaimsChain();
  ({ node, token, claims } = chain);
  h = await startHarness(chain.adminEnv);
  op = await h.newProject();
  campaignId = (await setUpCampaign(op, { xp: "Experience" })).campaignId;
  const signing = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  portal = await spawnApp("portal-api", {
    ...testServiceEnv(h.deps.db.schema),
    PORTAL_SIGNING_KEYS: signing,
    PORTAL_DOMAIN: "portal.test",
    CLAIMS_CONTRACT: chain.adminEnv.CLAIMS_CONTRACT as string,
    CLAIMS_CHAIN_ID: chain.adminEnv.CLAIMS_CHAIN_ID as string,
    CLAIMS_VOUCHER_SIGNER_KEY: chain.voucherSignerKey,
  });
  participant = await chain.funded();
}, 120_000);
afterAll(async () => {
  await portal?.stop("SIGKILL");
  await h?.close();
  await node?.stop();
});

describe("token-claim rewards on chain", () => {
  it("publishes an epoch's root and the participant claims with the API's proof; a second claim reverts", async () => {
    const reward = await op.call("POST", `/api/campaigns/${campaignId}/rewards`, {
      name: "5 RWD",
      kind: "token-claim",
      currency: "xp",
      price: "10",
      token_amount: (5n * E18).toString(),
    });
    expect([reward.status, reward.body.claim_method]).toEqual([201, "merkle"]);
    const session = await signInWithWallet(portal.url, campaignId, participant);
    await seedScore(h.deps.db, campaignId, session.userId, "xp", { score: "100" });
    const { auth } = session;
    for (const key of ["claim-1", "claim-2"]) {
      const r = await portalCall("POST", "/me/redemptions", { reward_id: reward.body.id, account: participant.address }, { ...auth, "idempotency-key": key });
      expect([r.status, r.body.status]).toEqual([201, "claimable"]);
    }
    const published = await op.call("POST", `/api/campaigns/${campaignId}/claim-epochs/close`);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: "published", redemptions: 2, token_amount: (10n * E18).toString() });
    // The contract holds the root the API stored.
    expect((await readEpoch(node.provider, await claims.getAddress(), BigInt(published.body.epoch))).root).toBe(published.body.root);

    const mine = await portalCall("GET", "/me/claims", undefined, auth);
    const claim = (mine.body.claims as { epoch: string; account: string; amount: string; proof: string[] }[])[0];
    // Two redemptions of 5 RWD to one account: one leaf of 2 x 5 = 10 RWD.
    expect(claim).toMatchObject({ epoch: published.body.epoch, account: participant.address.toLowerCase(), amount: (10n * E18).toString() });
    const before = (await token.getFunction("balanceOf")(participant.address)) as bigint;
    const submit = () =>
      (claims.connect(participant) as Contract).getFunction("claim")(
        BigInt(claim?.epoch as string),
        claim?.account,
        BigInt(claim?.amount as string),
        claim?.proof,
      );
    await ((await submit()) as { wait(): Promise<unknown> }).wait();
    expect((await token.getFunction("balanceOf")(participant.address)) as bigint).toBe(before + 10n * E18);
    await expect(submit()).rejects.toThrow(/AlreadyClaimed|reverted/);
    // portal-api read and checked the epoch's tree once and keeps it: a stored tree that no longer loads is not read again.
    await h.deps.db.query("UPDATE claim_epoch SET tree = '{}'::jsonb WHERE id = $1", [published.body.epoch]);
    expect((await portalCall("GET", "/me/claims", undefined, auth)).body).toEqual(mine.body);
    // Closing again finds no open epoch.
    expect((await op.call("POST", `/api/campaigns/${campaignId}/claim-epochs/close`)).body.error.code).toBe("claim-epoch-not-found");
  });

  it("delivers a burn voucher the contract redeems once; the replay is refused by the contract", async () => {
    const reward = await op.call("POST", `/api/campaigns/${campaignId}/rewards`, {
      name: "2 RWD now",
      kind: "token-claim",
      claim_method: "burn-voucher",
      currency: "xp",
      price: "5",
      token_amount: (2n * E18).toString(),
    });
    const session = await signInWithWallet(portal.url, campaignId, participant);
    const auth = { ...session.auth, "idempotency-key": "burn-1" };
    const r = await portalCall("POST", "/me/redemptions", { reward_id: reward.body.id, account: participant.address }, auth);
    expect([r.status, r.body.status, r.body.claim_epoch]).toEqual([201, "delivered", null]);
    const v = r.body.burn_voucher as unknown as { user: string; amount: string; nonce: string; expiry: string; signature: string };
    expect([v.user, v.amount]).toEqual([participant.address.toLowerCase(), (2n * E18).toString()]);
    // A retry of the same request returns the same voucher.
    expect((await portalCall("POST", "/me/redemptions", { reward_id: reward.body.id, account: participant.address }, auth)).body.burn_voucher).toEqual(v);
    const before = (await token.getFunction("balanceOf")(participant.address)) as bigint;
    const redeem = () =>
      (claims.connect(participant) as Contract).getFunction("redeem")(v.user, BigInt(v.amount), BigInt(v.nonce), BigInt(v.expiry), v.signature);
    await ((await redeem()) as { wait(): Promise<unknown> }).wait();
    expect((await token.getFunction("balanceOf")(participant.address)) as bigint).toBe(before + 2n * E18);
    await expect(redeem()).rejects.toThrow(/VoucherUsed|reverted/);
  });
});

describe("claim settings", () => {
  it("refuses a publisher key that is a public test key or made up, and a partial set of claim settings", () => {
    const base = { ...testServiceEnv("t"), ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789" };
    const chain = { CLAIMS_RPC_URL: "http://127.0.0.1:8545", CLAIMS_CONTRACT: `0x${"1".repeat(40)}`, CLAIMS_CHAIN_ID: "31337" };
    expect(() => loadEnv({ ...base, ...chain, CLAIMS_PUBLISHER_KEY: node.accounts[0]?.privateKey })).toThrow(
      "CLAIMS_PUBLISHER_KEY: must not be a public test key (hardhat/anvil mnemonic)",
    );
    expect(() => loadEnv({ ...base, ...chain, CLAIMS_PUBLISHER_KEY: `0x${"0".repeat(64)}` })).toThrow(
      "CLAIMS_PUBLISHER_KEY: must not be an obviously made-up key",
    );
    expect(() => loadEnv({ ...base, CLAIMS_CONTRACT: chain.CLAIMS_CONTRACT })).toThrow(
      "CLAIMS_RPC_URL: is required with CLAIMS_CONTRACT (the claim settings go together)",
    );
  });
});

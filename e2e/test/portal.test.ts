// A participant acts for themselves: signs in at portal-api with a wallet and with an e-mail code, links a second wallet,
// sets a name, and reads their own scores at read-api with the issued token, which read-api checks through portal-api's JWKS.

import { signInWithWallet, waitUntil, walletSignInBody } from "@pointwise/testkit";
import { Wallet } from "ethers";
import { type PortalCampaign, setUpCampaign } from "./portal-campaign";
import { call, type Stack, startStack } from "./stack";

let stack: Stack;
let portal: string;
beforeAll(async () => {
  stack = await startStack({}, { portal: true });
  portal = stack.portal?.url as string;
});
afterAll(async () => {
  await stack?.drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("the portal end to end", () => {
  let campaignId = "";
  let earn: PortalCampaign["earn"];

  beforeAll(async () => {
    const campaign = await setUpCampaign(stack);
    campaignId = campaign.campaignId;
    earn = campaign.earn;
  });

  async function scoreOf(userId: string, token: string, expected: number) {
    let last: Awaited<ReturnType<typeof call>> = { status: 0, body: null };
    await waitUntil(
      async () => {
        last = await call("GET", `${stack.read.url}/users/${userId}/scores`, undefined, bearer(token));
        return last.status === 200 && last.body.scores.xp.score === expected;
      },
      20_000,
      `user ${userId} to have ${expected} xp`,
    );
    return last;
  }

  it("signs in with a wallet, links a second one, sets a name and reads its own scores through read-api", async () => {
    const first = Wallet.createRandom();
    const second = Wallet.createRandom();
    const signedIn = await call("POST", `${portal}/auth/wallet`, await walletSignInBody(portal, campaignId, first));
    expect(signedIn.status).toBe(200);
    const { user_id: userId, access_token: token } = signedIn.body;
    const { message, signature } = await walletSignInBody(portal, campaignId, second);
    const linked = await call("POST", `${portal}/me/wallets`, { message, signature }, bearer(token));
    expect(linked.status).toBe(200);
    expect((await call("PATCH", `${portal}/me`, { display_name: "Moon Walker" }, bearer(token))).status).toBe(200);
    // 2 xp per unit: 10.25 from the first wallet and 4 from the second, both the same user's: 28.5.
    expect((await earn(first.address, "EVM_ADDRESS", "10.25")).body.data.event_id).toBeDefined();
    expect((await earn(second.address.toLowerCase(), "EVM_ADDRESS", "4")).body.data.event_id).toBeDefined();
    const scores = await scoreOf(userId, token, 28.5);
    expect(scores.body).toMatchObject({ user_id: userId, rank: 1, display_name: "Moon Walker" });
    const ledger = await call("GET", `${portal}/me/ledger`, undefined, bearer(token));
    expect(ledger.body.entries.map((e: { points: string }) => e.points).sort()).toEqual(["20.5", "8"]);
  });

  it("signs in with an e-mail code sent through the log mailer, and that token reads only its own user", async () => {
    expect((await call("POST", `${portal}/auth/email/start`, { campaign_id: campaignId, email: "grace@example.org" })).status).toBe(202);
    let code = "";
    await waitUntil(
      () => {
        const line = (stack.portal?.output() ?? "").split("\n").find((l) => l.includes('"sign-in code"') && l.includes("grace@example.org"));
        code = line ? (JSON.parse(line).code as string) : "";
        return code !== "";
      },
      5000,
      "the code in the portal's log",
    );
    const signedIn = await call("POST", `${portal}/auth/email/verify`, { campaign_id: campaignId, email: "grace@example.org", code });
    expect(signedIn.status).toBe(200);
    await earn("grace@example.org", "EMAIL", "1");
    await scoreOf(signedIn.body.user_id, signedIn.body.access_token, 2);
    // Another participant's token reads nothing of this user.
    const other = await signInWithWallet(portal, campaignId, Wallet.createRandom());
    const forbidden = await call("GET", `${stack.read.url}/users/${signedIn.body.user_id}/scores`, undefined, other.auth);
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, "forbidden"]);
  });

  it("read-api refuses a token signed by a key the portal does not publish", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const jwt = (await import("jsonwebtoken")).default;
    const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const userId = "3f1f0d1e-5a43-4c1b-9b7e-2f9b1c0d4e11";
    const token = jwt.sign({ sub: userId, iss: "pointwise-portal", aud: "pointwise-read-api" }, stranger, {
      algorithm: "ES256",
      keyid: "stranger",
      expiresIn: 300,
    });
    const res = await call("GET", `${stack.read.url}/users/${userId}/scores`, undefined, bearer(token));
    expect([res.status, res.body.error.code]).toEqual([401, "invalid-token"]);
  });
});

// No body, however odd, makes portal-api answer 5xx: every JSON value in every field of every operation that takes one.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { type Harness, participant, startPortal } from "./harness";

let h: Harness;
let auth: Record<string, string>;
beforeAll(async () => {
  h = await startPortal({ PORTAL_ATTEMPTS_PER_IP: "100000", PORTAL_ATTEMPTS_PER_IDENTITY: "10000" });
  auth = (await participant(h)).auth;
});
afterAll(() => h.close());

const operations: { method: string; path: string; fields: string[]; signedIn: boolean }[] = [
  { method: "POST", path: "/auth/nonce", fields: ["campaign_id"], signedIn: false },
  { method: "POST", path: "/auth/wallet", fields: ["campaign_id", "wallet", "message", "signature", "referral_code"], signedIn: false },
  { method: "POST", path: "/auth/email/start", fields: ["campaign_id", "email"], signedIn: false },
  { method: "POST", path: "/auth/email/verify", fields: ["campaign_id", "email", "code", "referral_code"], signedIn: false },
  { method: "POST", path: "/auth/refresh", fields: ["refresh_token"], signedIn: false },
  { method: "PATCH", path: "/me", fields: ["display_name"], signedIn: true },
  { method: "POST", path: "/me/referrer", fields: ["referral_code"], signedIn: true },
  { method: "POST", path: "/me/wallets", fields: ["wallet", "message", "signature"], signedIn: true },
  { method: "POST", path: "/me/email/start", fields: ["email"], signedIn: true },
  { method: "POST", path: "/me/email/verify", fields: ["email", "code"], signedIn: true },
];

// Strings that reach parsers: EIP-4361 and Solana message shapes with odd parts, as well as anything at all.
const messageLike = fc
  .tuple(fc.constantFrom("portal.test", "", "a b"), fc.constantFrom("Ethereum", "Solana"), fc.string(), fc.string())
  .map(([domain, kind, address, rest]) => `${domain} wants you to sign in with your ${kind} account:\n${address}\n\n${rest}\nNonce: ${rest}`);
// The harness's campaign among the values, so bodies also get past the campaign lookup.
const oddValues = (campaignId: string) => fc.oneof(fc.jsonValue(), fc.string({ unit: "binary" }), messageLike, fc.constant(campaignId));

describe("no fault on odd input", () => {
  it("answers every odd body below 500", async () => {
    const value = oddValues(h.campaignId);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), fc.dictionary(fc.string(), value), fc.array(value, { maxLength: 5 }), async (op, extra, values) => {
        const body: Record<string, unknown> = {};
        op.fields.forEach((field, i) => {
          if (i < values.length) body[field] = values[i];
        });
        if (values.length % 2 === 1) Object.assign(body, extra);
        const res = await h.call(op.method, op.path, body, op.signedIn ? auth : {});
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 33 },
    );
  });

  it("answers odd query parameters of the ledger and the OAuth callback, and odd identity ids, below 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary" }), fc.string(), async (a, b) => {
        const q = new URLSearchParams({ limit: a, before: b }).toString();
        expect((await h.call("GET", `/me/ledger?${q}`, undefined, auth)).status).toBeLessThan(500);
        const cb = new URLSearchParams({ state: a, code: b }).toString();
        expect((await h.call("GET", `/oauth/x/callback?${cb}`)).status).toBeLessThan(500);
        expect((await h.call("DELETE", `/me/identities/${encodeURIComponent(b)}`, undefined, auth)).status).toBeLessThan(500);
      }),
      { numRuns: 100, seed: 33 },
    );
  });
});

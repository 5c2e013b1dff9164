// Signing in with an EVM wallet (EIP-4361): tokens, nonces used once, and every refusal with its code.
import { createHash, createHmac, createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { siweText, testServiceEnv } from "@pointwise/testkit";
import { getAddress } from "ethers";
import jwt from "jsonwebtoken";
import { loadEnv } from "../src/env";
import { bearer, type Harness, newSigningKey, newWallet, participant, signIn, startPortal } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startPortal({ PORTAL_EVM_CHAIN_IDS: "1,10" });
});
afterAll(() => h.close());

describe("POST /auth/wallet (EVM)", () => {
  it("signs a wallet in, creating its user once, and returns an ES256 token for that user", async () => {
    const wallet = newWallet();
    const first = await h.call("POST", "/auth/wallet", await signIn(h, wallet));
    expect(first.status).toBe(200);
    expect(first.body.token_type).toBe("Bearer");
    const [header, payload] = (first.body.access_token as string)
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
    expect(header.alg).toBe("ES256");
    expect(payload.sub).toBe(first.body.user_id);
    expect(payload.exp - payload.iat).toBe(900);
    const again = await h.call("POST", "/auth/wallet", await signIn(h, wallet));
    expect(again.body.user_id).toBe(first.body.user_id);
    const me = await h.call("GET", "/me", undefined, bearer(first.body.access_token));
    expect(me.body.identities).toEqual([expect.objectContaining({ identity_type: "EVM_ADDRESS", account_id: wallet.address.toLowerCase() })]);
  });

  it("refuses a replayed message with nonce-used, and a nonce it never issued with nonce-unknown", async () => {
    const wallet = newWallet();
    const body = await signIn(h, wallet);
    expect((await h.call("POST", "/auth/wallet", body)).status).toBe(200);
    const replay = await h.call("POST", "/auth/wallet", body);
    expect([replay.status, replay.body.error.code]).toEqual([401, "nonce-used"]);
    const message = siweText({ address: wallet.address, nonce: "madeUpNonce12345" });
    const unknown = await h.call("POST", "/auth/wallet", { campaign_id: h.campaignId, message, signature: await wallet.signMessage(message) });
    expect([unknown.status, unknown.body.error.code]).toEqual([401, "nonce-unknown"]);
  });

  it("refuses an expired nonce with nonce-expired", async () => {
    const wallet = newWallet();
    const body = await signIn(h, wallet);
    const nonce = /Nonce: (\S+)/.exec(body.message)?.[1];
    await h.deps.db.query("UPDATE portal_nonce SET expires_at = now() - interval '1 second' WHERE nonce = $1", [nonce]);
    const res = await h.call("POST", "/auth/wallet", body);
    expect([res.status, res.body.error.code]).toEqual([401, "nonce-expired"]);
  });

  it("refuses a wrong domain, a chain id not configured, an expired or future message, and a message without expiry", async () => {
    const wallet = newWallet();
    const codeOf = async (fields: Parameters<typeof signIn>[2]) => {
      const res = await h.call("POST", "/auth/wallet", await signIn(h, wallet, fields));
      return `${res.status} ${res.body.error?.code}`;
    };
    expect(await codeOf({ domain: "evil.test" })).toBe("401 wrong-domain");
    expect(await codeOf({ chainId: 137 })).toBe("401 wrong-chain");
    expect(await codeOf({ chainId: 10 })).toBe("200 undefined");
    expect(await codeOf({ issuedAt: new Date(Date.now() - 600_000), expirationTime: new Date(Date.now() - 1000) })).toBe("401 message-expired");
    expect(await codeOf({ issuedAt: new Date(Date.now() + 3_600_000) })).toBe("401 message-not-yet-valid");
    expect(await codeOf({ expirationTime: null })).toBe("400 invalid-message");
    expect(await codeOf({ expirationTime: new Date(Date.now() + 86_400_000) })).toBe("401 message-lifetime-too-long");
  });

  it("refuses a tampered message or signature, another wallet's signature, and a non-checksummed address", async () => {
    const wallet = newWallet();
    const body = await signIn(h, wallet);
    const tampered = await h.call("POST", "/auth/wallet", { ...body, message: body.message.replace("Sign in to", "Sign in to the") });
    expect([tampered.status, tampered.body.error.code]).toEqual([401, "invalid-signature"]);
    const flipped = `${body.signature.slice(0, 10)}${body.signature[10] === "a" ? "b" : "a"}${body.signature.slice(11)}`;
    expect((await h.call("POST", "/auth/wallet", { ...body, signature: flipped })).body.error.code).toBe("invalid-signature");
    const other = newWallet();
    expect((await h.call("POST", "/auth/wallet", { ...body, signature: await other.signMessage(body.message) })).body.error.code).toBe("invalid-signature");
    const fresh = await signIn(h, wallet);
    const lower = fresh.message.replace(getAddress(wallet.address), wallet.address.toLowerCase());
    const res = await h.call("POST", "/auth/wallet", { ...fresh, message: lower, signature: await wallet.signMessage(lower) });
    expect([res.status, res.body.error.code]).toEqual([400, "invalid-message"]);
  });

  it("answers a nonce with the service's issue and expiry times, and a lowercase address in its EIP-55 form", async () => {
    const wallet = newWallet();
    const before = Date.now();
    const nonce = (await h.call("POST", "/auth/nonce", { campaign_id: h.campaignId, address: wallet.address.toLowerCase() })).body;
    // ethers computes the address from the key; the service gets only its lowercase form.
    expect(nonce.address).toBe(wallet.address);
    const [issued, expires] = [Date.parse(nonce.issued_at), Date.parse(nonce.expires_at)];
    expect(expires - issued).toBe(300_000);
    expect(Math.abs(issued - before)).toBeLessThan(5_000);
    // A message with exactly these times and the answered address signs in.
    const message = siweText({ address: nonce.address, nonce: nonce.nonce, issuedAt: new Date(nonce.issued_at), expirationTime: new Date(nonce.expires_at) });
    const res = await h.call("POST", "/auth/wallet", { campaign_id: h.campaignId, message, signature: await wallet.signMessage(message) });
    expect(res.status).toBe(200);
    const bad = await h.call("POST", "/auth/nonce", { campaign_id: h.campaignId, address: "0x12" });
    expect([bad.status, bad.body.error.message]).toEqual([400, "address: must be an EVM address: 0x and 40 hex digits"]);
    // EIP-55's own example 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed with its second letter's case flipped fails the checksum.
    const mistyped = await h.call("POST", "/auth/nonce", { campaign_id: h.campaignId, address: "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed" });
    expect([mistyped.status, mistyped.body.error.code]).toEqual([400, "invalid-account-id"]);
    expect(mistyped.body.error.message).toBe("account_id is not a valid EVM_ADDRESS: EIP-55 checksum mismatch");
    const zero = await h.call("POST", "/auth/nonce", { campaign_id: h.campaignId, address: "0x0000000000000000000000000000000000000000" });
    expect([zero.status, zero.body.error]).toEqual([
      400,
      { code: "invalid-account-id", message: "account_id is not a valid EVM_ADDRESS: must not be the zero address, which no wallet holds" },
    ]);
  });

  it("refuses an unknown campaign with campaign-not-found and a bad body with validation-failed naming the field", async () => {
    const nonce = await h.call("POST", "/auth/nonce", { campaign_id: "zzzz-9999" });
    expect([nonce.status, nonce.body.error.code]).toEqual([404, "campaign-not-found"]);
    const bad = await h.call("POST", "/auth/wallet", { campaign_id: h.campaignId, message: "", signature: "0x" });
    expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([400, "validation-failed", "message: must not be empty"]);
  });
});

describe("concurrent sign-ins", () => {
  it("gives one new wallet one user when two sign-ins race, and a nonce to only one of two racing uses", async () => {
    const wallet = newWallet();
    const [a, b] = await Promise.all([signIn(h, wallet), signIn(h, wallet)]);
    const both = await Promise.all([h.call("POST", "/auth/wallet", a), h.call("POST", "/auth/wallet", b)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0]?.body.user_id).toBe(both[1]?.body.user_id);
    const { rows } = await h.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM identity WHERE account_id = $1", [wallet.address.toLowerCase()]);
    expect(rows[0]?.n).toBe(1);
    const once = await signIn(h, newWallet());
    const racing = await Promise.all([1, 2, 3].map(() => h.call("POST", "/auth/wallet", once)));
    expect(racing.map((r) => r.body.error?.code ?? "ok").sort()).toEqual(["nonce-used", "nonce-used", "ok"]);
  });
});

describe("tokens", () => {
  it("refreshes with a rotated refresh token and signs out for good", async () => {
    const signedIn = (await participant(h)).body;
    const refreshed = await h.call("POST", "/auth/refresh", { refresh_token: signedIn.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user_id).toBe(signedIn.user_id);
    // The used token coming back is the next test's case: it ends the session.
    expect((await h.call("POST", "/auth/sign-out", undefined, bearer(refreshed.body.access_token))).status).toBe(204);
    const after = await h.call("GET", "/me", undefined, bearer(refreshed.body.access_token));
    expect([after.status, after.body.error.code]).toEqual([401, "session-ended"]);
    expect((await h.call("POST", "/auth/refresh", { refresh_token: refreshed.body.refresh_token })).body.error.code).toBe("invalid-refresh-token");
  });

  it("ends the session when a refresh token already exchanged comes back, so a stolen copy's successors stop working too", async () => {
    const signedIn = (await participant(h)).body;
    // The thief refreshes first with a copy; the participant's own refresh then brings the used token.
    const thief = (await h.call("POST", "/auth/refresh", { refresh_token: signedIn.refresh_token })).body;
    const reused = await h.call("POST", "/auth/refresh", { refresh_token: signedIn.refresh_token });
    expect([reused.status, reused.body.error.code]).toEqual([401, "invalid-refresh-token"]);
    expect((await h.call("POST", "/auth/refresh", { refresh_token: thief.refresh_token })).body.error?.code).toBe("invalid-refresh-token");
    const me = await h.call("GET", "/me", undefined, bearer(thief.access_token));
    expect([me.status, me.body.error?.code]).toEqual([401, "session-ended"]);
  });

  it("still refreshes a session signed in before refresh tokens named their session", async () => {
    const signedIn = (await participant(h)).body;
    const legacy = `pwr_${"b".repeat(43)}`;
    await h.deps.db.query("UPDATE portal_session SET refresh_hash = $2 WHERE user_id = $1", [
      signedIn.user_id,
      createHash("sha256").update(legacy).digest("hex"),
    ]);
    const refreshed = await h.call("POST", "/auth/refresh", { refresh_token: legacy });
    expect([refreshed.status, refreshed.body.user_id]).toEqual([200, signedIn.user_id]);
    expect((await h.call("POST", "/auth/refresh", { refresh_token: refreshed.body.refresh_token })).status).toBe(200);
  });

  it("does not let a made-up refresh token naming a session end it", async () => {
    const signedIn = (await participant(h)).body;
    const { sid } = JSON.parse(Buffer.from(signedIn.access_token.split(".")[1], "base64url").toString());
    const secret = "A".repeat(43);
    const forged = await h.call("POST", "/auth/refresh", { refresh_token: `pwr_${sid}.${secret}.${secret}` });
    expect([forged.status, forged.body.error.code]).toEqual([401, "invalid-refresh-token"]);
    expect((await h.call("GET", "/me", undefined, bearer(signedIn.access_token))).status).toBe(200);
    expect((await h.call("POST", "/auth/refresh", { refresh_token: signedIn.refresh_token })).status).toBe(200);
  });

  it("refuses alg none, an HS256 token keyed with the published public key, a token of an unknown key and one whose payload is not JSON", async () => {
    const signedIn = (await participant(h)).body;
    const [, payload] = (signedIn.access_token as string).split(".");
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const kid = h.deps.keys.jwks().keys[0]?.kid;
    const none = `${part({ alg: "none", typ: "JWT", kid })}.${payload}.`;
    expect((await h.call("GET", "/me", undefined, bearer(none))).body.error.code).toBe("invalid-token");
    const jwk = h.deps.keys.jwks().keys[0];
    const pem = createPublicKey({ key: jwk as never, format: "jwk" })
      .export({ type: "spki", format: "pem" })
      .toString();
    const head = part({ alg: "HS256", typ: "JWT", kid });
    const confused = `${head}.${payload}.${createHmac("sha256", pem).update(`${head}.${payload}`).digest("base64url")}`;
    expect((await h.call("GET", "/me", undefined, bearer(confused))).body.error.code).toBe("invalid-token");
    const otherKid = `${part({ alg: "ES256", typ: "JWT", kid: "someone-else" })}.${payload}.${(signedIn.access_token as string).split(".")[2]}`;
    expect((await h.call("GET", "/me", undefined, bearer(otherKid))).body.error.code).toBe("invalid-token");
    // typ JWT with a payload that is not JSON: jsonwebtoken's decode throws a SyntaxError of its own.
    const notJson = await h.call("GET", "/me", undefined, bearer(`${part({ alg: "ES256", typ: "JWT", kid })}.eA.${"A".repeat(86)}`));
    expect([notJson.status, notJson.body.error.code]).toEqual([401, "invalid-token"]);
    expect((await h.call("GET", "/me")).body.error.code).toBe("missing-credentials");
  });

  it("refuses a token of its own key that expired, claims a life over PORTAL_ACCESS_TOKEN_TTL_S or has no exp, with the read API's codes", async () => {
    const signedIn = (await participant(h)).body;
    const claims = JSON.parse(Buffer.from((signedIn.access_token as string).split(".")[1] as string, "base64url").toString());
    const { env, keys } = h.deps;
    const kid = keys.jwks().keys[0]?.kid as string;
    const now = Math.floor(Date.now() / 1000);
    // Signed with the portal's own signing key, as a token it issued under other settings would be.
    const own = (times: { iat?: number; exp?: number }) =>
      jwt.sign({ sub: claims.sub, sid: claims.sid, cid: claims.cid, ...times }, env.PORTAL_SIGNING_KEYS[0] as string, {
        algorithm: "ES256",
        keyid: kid,
        issuer: env.PORTAL_JWT_ISSUER,
        audience: env.PORTAL_JWT_AUDIENCE,
        noTimestamp: true,
      });
    const ttl = env.PORTAL_ACCESS_TOKEN_TTL_S;
    const codeOf = async (token: string) => {
      const reply = await h.call("GET", "/me", undefined, bearer(token));
      return `${reply.status} ${reply.body.error?.code ?? "ok"}`;
    };
    expect(await codeOf(own({ iat: now, exp: now + ttl }))).toBe("200 ok");
    expect(await codeOf(own({ iat: now - ttl - 60, exp: now - 60 }))).toBe("401 token-expired");
    expect(await codeOf(own({ iat: now, exp: now + ttl + 1 }))).toBe("401 token-lifetime-too-long");
    // Without iat the life runs from now: leaving it out buys nothing.
    expect(await codeOf(own({ exp: now + ttl + 60 }))).toBe("401 token-lifetime-too-long");
    expect(await codeOf(own({ iat: now }))).toBe("401 invalid-token");
  });
});

describe("limits per client address behind a proxy", () => {
  it("counts the address the proxy appended (PORTAL_TRUST_PROXY=1), whatever the client writes before it in X-Forwarded-For", async () => {
    const proxied = await startPortal({ PORTAL_TRUST_PROXY: "1", PORTAL_ATTEMPTS_PER_IP: "3" });
    try {
      const nonce = (forwarded: string) => proxied.call("POST", "/auth/nonce", { campaign_id: proxied.campaignId }, { "x-forwarded-for": forwarded });
      const statuses: number[] = [];
      // One client behind the proxy (203.0.113.9) forging a new address of its own in front each time.
      for (let i = 1; i <= 4; i++) statuses.push((await nonce(`198.51.100.${i}, 203.0.113.9`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // Another client the proxy saw goes on.
      expect((await nonce("203.0.113.9, 192.0.2.44")).status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it.each([
    ["false", 0],
    ["0", 0],
    ["true", 1],
    ["1", 1],
    ["2", 2],
  ])("reads PORTAL_TRUST_PROXY=%s as %d proxies, and refuses anything else naming it", async (value, hops) => {
    expect(loadEnv({ ...testServiceEnv("trust_proxy"), PORTAL_SIGNING_KEYS: newSigningKey(), PORTAL_TRUST_PROXY: value }).PORTAL_TRUST_PROXY).toBe(hops);
    expect(() => loadEnv({ ...testServiceEnv("trust_proxy"), PORTAL_SIGNING_KEYS: newSigningKey(), PORTAL_TRUST_PROXY: "yes" })).toThrow(
      "Invalid environment: PORTAL_TRUST_PROXY: must be false, true, or the number of proxies in front (0 to 10)",
    );
  });
});

describe("limits per wallet", () => {
  it("refuses a wallet's attempts beyond PORTAL_ATTEMPTS_PER_IDENTITY with 429, counting failed ones, while other wallets go on", async () => {
    const limited = await startPortal({ PORTAL_ATTEMPTS_PER_IDENTITY: "3" });
    try {
      const wallet = newWallet();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const body = await signIn(limited, wallet);
        // Wrong signatures count as attempts too.
        const res = await limited.call("POST", "/auth/wallet", i < 2 ? { ...body, signature: await newWallet().signMessage(body.message) } : body);
        statuses.push(res.status);
        if (res.status === 429) expect(res.body.error.code).toBe("too-many-attempts");
      }
      expect(statuses).toEqual([401, 401, 200, 429]);
      expect((await limited.call("POST", "/auth/wallet", await signIn(limited, newWallet()))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

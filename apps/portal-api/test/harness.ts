// Test support for portal-api: the app in-process on its own migrated schema, a captured mailer, signed wallets.
import { generateKeyPairSync } from "node:crypto";
import type { Server } from "node:http";
import { createBus } from "@pointwise/bus";
import { loadBadWords } from "@pointwise/config";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen } from "@pointwise/runtime";
import {
  createTestDatabase,
  type MessageSigner,
  type SiweFields,
  seedCampaign,
  signInWithWallet,
  testServiceEnv,
  uniqueName,
  type WalletSession,
  type WalletSignInBody,
  walletSignInBody,
} from "@pointwise/testkit";
import { type HDNodeWallet, Wallet } from "ethers";
import type { Express } from "express";
import { createPortalApp } from "../src/app";
import type { Deps } from "../src/deps";
import { loadEnv } from "../src/env";
import { createTokenKeys } from "../src/keys";
import type { CodeMail } from "../src/mailer";
import type { EvmChain } from "../src/wallet-evm";

/** A parsed JSON answer, read freely by the tests. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape each endpoint answers.
export type Json = any;

/** A response as the tests look at it. */
export interface Reply {
  status: number;
  body: Json;
  headers: Headers;
}

/** portal-api in-process on a free port, against its own migrated schema. */
export interface Harness {
  url: string;
  /** The Express app being served (tests list its routes). */
  app: Express;
  deps: Deps;
  campaignId: string;
  /** Codes the mailer was asked to send, newest last. */
  mails: CodeMail[];
  /** The service's log lines at warn and above, as written. */
  logs: string[];
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

/** A new P-256 private key as PKCS#8 PEM. */
export function newSigningKey(): string {
  return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** Starts portal-api with `env` on top of the test defaults. */
export async function startPortal(env: Record<string, string> = {}, chain: EvmChain | null = null): Promise<Harness> {
  const schema = uniqueName("portal");
  const db = await createTestDatabase(schema);
  const parsed = loadEnv({ ...testServiceEnv(schema), PORTAL_SIGNING_KEYS: newSigningKey(), PORTAL_DOMAIN: "portal.test", LOG_LEVEL: "silent", ...env });
  const mails: CodeMail[] = [];
  const logs: string[] = [];
  // As main.ts connects it; a test that points NATS_URL at a closed port gets a bus that never comes up.
  const bus = await createBus({ url: parsed.NATS_URL, namespace: parsed.NAMESPACE, name: "portal-api", firstConnect: "background" });
  const deps: Deps = {
    env: parsed,
    logger: createLogger({ service: "portal-api-test", level: "warn", destination: { write: (line: string) => void logs.push(line) } }),
    db,
    bus,
    keys: createTokenKeys(parsed.PORTAL_SIGNING_KEYS, {
      issuer: parsed.PORTAL_JWT_ISSUER,
      audience: parsed.PORTAL_JWT_AUDIENCE,
      maxLifetimeS: parsed.PORTAL_ACCESS_TOKEN_TTL_S,
    }),
    mailer: {
      async sendCode(mail) {
        mails.push(mail);
      },
    },
    chain,
    badWords: loadBadWords(parsed.BAD_WORDS_FILE),
  };
  const campaignId = await seedCampaign(db, { badWords: ["gizmo"] });
  const app = createPortalApp(deps);
  const server: Server = await listen(app, 0, "127.0.0.1");
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    url,
    app,
    deps,
    campaignId,
    mails,
    logs,
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...(body === undefined || typeof body === "string" ? {} : { "content-type": "application/json" }), ...headers },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      let parsedBody: unknown = text;
      try {
        parsedBody = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, body: parsedBody, headers: res.headers };
    },
    async close() {
      await closeServer(server);
      await bus.close();
      await db.drop();
    },
  };
}

/** Asks the harness for a nonce and signs a message with it: the body of POST /auth/wallet (see testkit's walletSignInBody). */
export function signIn(h: Harness, signer: MessageSigner, fields: Partial<SiweFields> = {}): Promise<WalletSignInBody> {
  return walletSignInBody(h.url, h.campaignId, signer, fields);
}

/** A participant of the harness's campaign, signed in with its wallet. */
export interface Participant extends WalletSession {
  wallet: Wallet | HDNodeWallet;
}

/** Signs `wallet` (a new one by default) in to the harness's campaign, with `extra` fields such as a referral code. */
export async function participant(h: Harness, wallet: Wallet | HDNodeWallet = newWallet(), extra: Record<string, unknown> = {}): Promise<Participant> {
  return { wallet, ...(await signInWithWallet(h.url, h.campaignId, wallet, extra)) };
}

/** Links `wallet` to the signed-in participant whose Authorization header is `auth` (POST /me/wallets, signed by its key). */
export async function linkWallet(h: Harness, auth: Record<string, string>, signer: MessageSigner): Promise<Reply> {
  const { message, signature } = await signIn(h, signer);
  return h.call("POST", "/me/wallets", { message, signature }, auth);
}

/** A new random EVM wallet. */
export const newWallet = (): HDNodeWallet => Wallet.createRandom();

/** The Authorization header of an access token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

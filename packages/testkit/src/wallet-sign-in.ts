// Signing in to portal-api with an EVM wallet, as a participant's client does: a nonce, an EIP-4361 message, its signature.
import { postJson } from "./http";

/** A key that signs messages by EIP-191 (personal_sign), such as an ethers Wallet. */
export interface MessageSigner {
  address: string;
  signMessage(message: string): Promise<string>;
}

/** The fields of an EIP-4361 message a test may vary. */
export interface SiweFields {
  domain?: string;
  address: string;
  chainId?: number;
  nonce: string;
  issuedAt?: Date;
  expirationTime?: Date | null;
}

/** Writes an EIP-4361 message by the standard's layout (ABNF of the EIP), independent of the siwe library. */
export function siweText(f: SiweFields): string {
  const domain = f.domain ?? "portal.test";
  const issued = f.issuedAt ?? new Date();
  const lines = [
    `${domain} wants you to sign in with your Ethereum account:`,
    f.address,
    "",
    "Sign in to the campaign.",
    "",
    `URI: https://${domain}`,
    "Version: 1",
    `Chain ID: ${f.chainId ?? 1}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${issued.toISOString()}`,
  ];
  const expiry = f.expirationTime === undefined ? new Date(issued.getTime() + 120_000) : f.expirationTime;
  if (expiry) lines.push(`Expiration Time: ${expiry.toISOString()}`);
  return lines.join("\n");
}

/** The body of POST /auth/wallet (and, without campaign_id, of POST /me/wallets). */
export interface WalletSignInBody {
  campaign_id: string;
  message: string;
  signature: string;
}

/**
 * Asks portal-api at `portalUrl` for a nonce of the campaign and signs a message with it by `signer`: for the signer's
 * own address and the domain the nonce's answer names, unless `fields` say otherwise (a contract wallet's address, say).
 */
export async function walletSignInBody(
  portalUrl: string,
  campaignId: string,
  signer: MessageSigner,
  fields: Partial<SiweFields> = {},
): Promise<WalletSignInBody> {
  const { body } = await postJson(`${portalUrl}/auth/nonce`, { campaign_id: campaignId }, {});
  if (typeof body?.nonce !== "string") throw new Error(`POST /auth/nonce answered no nonce: ${JSON.stringify(body)}`);
  const message = siweText({ address: signer.address, nonce: body.nonce, domain: body.domain, ...fields });
  return { campaign_id: campaignId, message, signature: await signer.signMessage(message) };
}

/** A participant signed in with a wallet: the user, its access token, and the whole answer of POST /auth/wallet. */
export interface WalletSession {
  userId: string;
  accessToken: string;
  /** The Authorization header of the access token. */
  auth: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the answer's other fields (refresh_token, referral) as each needs.
  body: any;
}

/** Signs `signer` in to a campaign at portal-api (POST /auth/wallet, with `extra` fields such as a referral code); throws unless it is signed in. */
export async function signInWithWallet(
  portalUrl: string,
  campaignId: string,
  signer: MessageSigner,
  extra: Record<string, unknown> = {},
): Promise<WalletSession> {
  const { body, text } = await postJson(`${portalUrl}/auth/wallet`, { ...(await walletSignInBody(portalUrl, campaignId, signer)), ...extra }, {});
  if (typeof body?.access_token !== "string") throw new Error(`POST /auth/wallet signed nobody in: ${text.slice(0, 300)}`);
  return { userId: body.user_id, accessToken: body.access_token, auth: { authorization: `Bearer ${body.access_token}` }, body };
}

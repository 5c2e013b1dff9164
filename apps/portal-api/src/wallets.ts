// One entry for both wallet kinds: checks a signed sign-in message and says which identity it proves.
import { AuthError, ValidationError } from "@pointwise/errors";
import { normalizeAccountId } from "@pointwise/schemas";
import { z } from "zod";
import type { Deps } from "./deps";
import { checkEvmMessage } from "./wallet-evm";
import { parseSolanaMessage, solanaSignatureValid } from "./wallet-solana";

/** The wallet kinds a participant signs in with. */
export const walletSchema = z.enum(["evm", "solana"], { message: "must be evm or solana" });

/** What a checked message proves. */
export interface ProvenWallet {
  identityType: "EVM_ADDRESS" | "SOLANA_ADDRESS";
  accountId: string;
  nonce: string;
}

const SKEW_MS = 60_000;

/**
 * Checks a signed sign-in message of either kind (everything but using the nonce up, which the caller
 * does). `countIdentity` is called with the wallet's address once it is read, before the signature is checked.
 */
export async function checkWalletMessage(
  deps: Deps,
  wallet: z.infer<typeof walletSchema>,
  message: string,
  signature: string,
  countIdentity: (account: string) => Promise<void>,
): Promise<ProvenWallet> {
  const { env } = deps;
  if (wallet === "evm") {
    const address = /^0x[0-9a-fA-F]{40}$/.exec(message.split("\n")[1] ?? "")?.[0];
    if (address) await countIdentity(address.toLowerCase());
    const signed = await checkEvmMessage(message, signature, {
      domain: env.PORTAL_DOMAIN,
      chainIds: env.PORTAL_EVM_CHAIN_IDS,
      maxLifetimeS: env.PORTAL_NONCE_TTL_S,
      chain: deps.chain,
    });
    return { identityType: "EVM_ADDRESS", accountId: normalizeAccountId("EVM_ADDRESS", signed.address, { entry: true }), nonce: signed.nonce };
  }
  const parsed = parseSolanaMessage(message);
  await countIdentity(parsed.address);
  if (parsed.domain !== env.PORTAL_DOMAIN) throw new AuthError("wrong-domain", `the message is for ${parsed.domain}; sign a message for ${env.PORTAL_DOMAIN}`);
  if (!env.PORTAL_SOLANA_CLUSTERS.includes(parsed.chainId)) {
    throw new AuthError("wrong-chain", `chain id ${parsed.chainId} is not accepted (accepted: ${env.PORTAL_SOLANA_CLUSTERS.join(", ")})`);
  }
  if (parsed.expirationTime === null) throw new ValidationError("message must carry an Expiration Time", { code: "invalid-message", field: "message" });
  const now = Date.now();
  const issuedAt = Date.parse(parsed.issuedAt);
  const expiresAt = Date.parse(parsed.expirationTime);
  if (expiresAt <= now) throw new AuthError("message-expired", `the message expired at ${parsed.expirationTime}`);
  if (issuedAt > now + SKEW_MS) throw new AuthError("message-not-yet-valid", `the message is issued at ${parsed.issuedAt}, in the future`);
  if (parsed.notBefore && Date.parse(parsed.notBefore) > now + SKEW_MS)
    throw new AuthError("message-not-yet-valid", `the message is valid from ${parsed.notBefore}`);
  if (expiresAt - issuedAt > env.PORTAL_NONCE_TTL_S * 1000) {
    throw new AuthError("message-lifetime-too-long", `a message may live at most ${env.PORTAL_NONCE_TTL_S} s from Issued At to Expiration Time`);
  }
  if (!solanaSignatureValid(message, parsed.address, signature))
    throw new AuthError("invalid-signature", "the signature does not match the message and its address");
  return { identityType: "SOLANA_ADDRESS", accountId: parsed.address, nonce: parsed.nonce };
}

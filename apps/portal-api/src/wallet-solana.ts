// Sign-in with a Solana wallet: the EIP-4361 message shape with "Solana account", signed with ed25519 by the address's key.
import { createPublicKey, verify } from "node:crypto";
import { AuthError, ValidationError } from "@pointwise/errors";
import { normalizeAccountId } from "@pointwise/schemas";
import { base58 } from "@scure/base";

/** The fields of a Solana sign-in message (CAIP-122 / EIP-4361 layout). */
export interface SolanaMessage {
  domain: string;
  address: string;
  uri: string;
  version: string;
  chainId: string;
  nonce: string;
  issuedAt: string;
  expirationTime: string | null;
  notBefore: string | null;
}

const HEADER = /^([A-Za-z0-9.-]+(?::[0-9]{1,5})?) wants you to sign in with your Solana account:$/;
const FIELDS: Record<string, keyof SolanaMessage> = {
  URI: "uri",
  Version: "version",
  "Chain ID": "chainId",
  Nonce: "nonce",
  "Issued At": "issuedAt",
  "Expiration Time": "expirationTime",
  "Not Before": "notBefore",
};

const invalidMessage = (why: string) => new ValidationError(`message is not a Solana sign-in message: ${why}`, { code: "invalid-message", field: "message" });

/** Reads a Solana sign-in message; throws 400 `invalid-message` naming what is missing or malformed. */
export function parseSolanaMessage(text: string): SolanaMessage {
  const lines = text.split("\n");
  const header = HEADER.exec(lines[0] ?? "");
  if (!header?.[1]) throw invalidMessage('the first line must be "<domain> wants you to sign in with your Solana account:"');
  const address = lines[1] ?? "";
  try {
    normalizeAccountId("SOLANA_ADDRESS", address);
  } catch {
    throw invalidMessage("the second line must be a Solana address");
  }
  const found: Partial<Record<keyof SolanaMessage, string>> = {};
  for (const line of lines.slice(2)) {
    const colon = line.indexOf(": ");
    const field = colon > 0 ? FIELDS[line.slice(0, colon)] : undefined;
    if (!field) continue;
    if (found[field] !== undefined) throw invalidMessage(`${line.slice(0, colon)} is given twice`);
    found[field] = line.slice(colon + 2);
  }
  for (const [label, field] of Object.entries(FIELDS)) {
    if (found[field] === undefined && field !== "expirationTime" && field !== "notBefore") throw invalidMessage(`${label} is missing`);
  }
  if (found.version !== "1") throw invalidMessage("Version must be 1");
  if (!/^[A-Za-z0-9]{8,}$/.test(found.nonce ?? "")) throw invalidMessage("Nonce must be at least 8 letters and digits");
  for (const field of ["issuedAt", "expirationTime", "notBefore"] as const) {
    const value = found[field];
    if (value !== undefined && Number.isNaN(Date.parse(value))) throw invalidMessage(`${field} must be an ISO 8601 time`);
  }
  return {
    domain: header[1],
    address,
    uri: found.uri as string,
    version: "1",
    chainId: found.chainId as string,
    nonce: found.nonce as string,
    issuedAt: found.issuedAt as string,
    expirationTime: found.expirationTime ?? null,
    notBefore: found.notBefore ?? null,
  };
}

/** True when `signature` (base58, 64 bytes) is the ed25519 signature of the message's UTF-8 bytes by the address's key. */
export function solanaSignatureValid(text: string, address: string, signature: string): boolean {
  let sig: Uint8Array;
  try {
    sig = base58.decode(signature);
  } catch {
    throw new AuthError("invalid-signature", "signature must be base58");
  }
  if (sig.length !== 64) throw new AuthError("invalid-signature", "signature must be 64 bytes (base58)");
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(base58.decode(address)).toString("base64url") }, format: "jwk" });
  return verify(null, Buffer.from(text, "utf8"), key, sig);
}

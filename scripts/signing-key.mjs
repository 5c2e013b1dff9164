// A new portal-api signing key: `node scripts/signing-key.mjs` prints one; `npm start` and docker compose use it
// when PORTAL_SIGNING_KEYS is not given.
import { generateKeyPairSync } from "node:crypto";
import { pathToFileURL } from "node:url";

/** A P-256 private key (PKCS#8 PEM): portal-api signs participants' tokens with it (ES256). */
export function newSigningKey() {
  return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(newSigningKey());

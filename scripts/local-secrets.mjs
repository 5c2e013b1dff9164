// Secrets for running Pointwise on your own machine, where nobody has given any: `npm start` keeps them in
// .pointwise/, and docker compose's commands make them at each start. `node scripts/local-secrets.mjs <kind>` prints
// one: `signing-key` (portal-api's P-256 key), `secret` (a JWT secret) or `password` (the demo operator's).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";

/** A P-256 private key (PKCS#8 PEM): portal-api signs participants' tokens with it (ES256). */
export function newSigningKey() {
  return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** 32 random bytes as hex: an HS256 secret (ADMIN_JWT_SECRET, PORTAL_JWT_SECRET). */
export function newSecret() {
  return randomBytes(32).toString("hex");
}

/** A password for the demo operator (ADMIN_PASSWORD). */
export function newDemoPassword() {
  return `demo-${randomBytes(9).toString("base64url")}`;
}

const KINDS = { "signing-key": newSigningKey, secret: newSecret, password: newDemoPassword };

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const make = KINDS[process.argv[2] ?? ""];
  if (make === undefined) {
    process.stderr.write(`usage: node scripts/local-secrets.mjs ${Object.keys(KINDS).join("|")}\n`);
    process.exit(2);
  }
  process.stdout.write(make());
}

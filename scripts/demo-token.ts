// Mints a portal JWT for a demo user, so the demo can call GET /users/{user_id}/scores as that user.
//   node --import tsx scripts/demo-token.ts <user_id> [--ttl <seconds>]
// Signs HS256 with PORTAL_JWT_SECRET (from the environment, else the secret `npm start` keeps in
// .pointwise/secrets.json) and uses PORTAL_JWT_ISSUER / PORTAL_JWT_AUDIENCE (defaults as read-api's).
// Prints the token alone on stdout, so `TOKEN=$(node --import tsx scripts/demo-token.ts <id>)` works.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import jwt from "jsonwebtoken";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_TTL_SECONDS = 86_400;

function fail(message: string): never {
  process.stderr.write(`${message}\nusage: node --import tsx scripts/demo-token.ts <user_id> [--ttl <seconds>]\n`);
  process.exit(1);
}

function portalSecret(): string {
  if (process.env.PORTAL_JWT_SECRET) return process.env.PORTAL_JWT_SECRET;
  const file = path.join(__dirname, "..", ".pointwise", "secrets.json");
  if (existsSync(file)) {
    const secret = (JSON.parse(readFileSync(file, "utf8")) as { PORTAL_JWT_SECRET?: string }).PORTAL_JWT_SECRET;
    if (secret) return secret;
  }
  return fail("PORTAL_JWT_SECRET is not set and .pointwise/secrets.json has none (run `npm start` once, or export it)");
}

function parseArgs(argv: string[]): { userId: string; ttl: number } {
  const [userId, ...rest] = argv;
  if (!userId || !UUID.test(userId)) fail("user_id must be a uuid");
  let ttl = 3600;
  for (let i = 0; i < rest.length; i += 2) {
    if (rest[i] !== "--ttl") fail(`unknown option ${rest[i]}`);
    ttl = Number(rest[i + 1]);
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS) fail(`--ttl must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS}`);
  }
  return { userId: userId.toLowerCase(), ttl };
}

const { userId, ttl } = parseArgs(process.argv.slice(2));
const token = jwt.sign({ sub: userId }, portalSecret(), {
  algorithm: "HS256",
  expiresIn: ttl,
  issuer: process.env.PORTAL_JWT_ISSUER ?? "pointwise-portal",
  audience: process.env.PORTAL_JWT_AUDIENCE ?? "pointwise-read-api",
});
process.stdout.write(`${token}\n`);

// Connection URLs as they may be logged: passwords, tokens and secret query parameters replaced by ***.
import { SECRET_PARAM_NAME as SECRET_PARAM } from "@pointwise/logger";

// NATS takes a bare token as the user part (nats://<token>@host), so there the user is a secret too.
const TOKEN_USER_SCHEMES = new Set(["nats:", "tls:"]);

// A comma before a scheme starts the next server of a list (NATS_URL: nats://n1:4222,nats://user:pw@n2:4222); a comma
// without one stays inside its URL (PostgreSQL's postgres://u:pw@h1,h2/db).
const NEXT_SERVER = /,(?=\s*[a-z][a-z0-9+.-]*:\/\/)/i;

/** The URLs of a comma-separated server list, or `[url]` for a single one. */
function serversOf(url: string): string[] {
  return url.split(NEXT_SERVER).map((entry, i) => (i === 0 ? entry : entry.trimStart()));
}

/**
 * `url` with its credentials masked: `postgres://app:s3cret@db:5432/x` -> `postgres://app:***@db:5432/x`; each server
 * of a comma-separated list on its own. A URL that cannot be parsed is reduced to its scheme, so nothing in it can leak.
 */
export function maskUrl(url: string): string {
  return serversOf(url).map(maskOne).join(",");
}

function maskOne(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
    return scheme ? `${scheme}://***` : "***";
  }
  if (parsed.password) parsed.password = "***";
  else if (parsed.username && TOKEN_USER_SCHEMES.has(parsed.protocol)) parsed.username = "***";
  for (const name of [...parsed.searchParams.keys()]) if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, "***");
  // URL encodes the *s of a search parameter; show them as written.
  return parsed.toString().replace(/%2A%2A%2A/g, "***");
}

/** The secrets of `url` or of each URL of a list (password, token user, secret query values), to scrub from other text such as a driver's error message. */
export function secretsOf(url: string): string[] {
  return [...new Set(serversOf(url).flatMap(secretsOfOne))];
}

function secretsOfOne(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: string[] = [];
  const add = (raw: string) => {
    if (!raw) return;
    found.push(raw);
    try {
      found.push(decodeURIComponent(raw));
    } catch {}
  };
  if (parsed.password) add(parsed.password);
  else if (parsed.username && TOKEN_USER_SCHEMES.has(parsed.protocol)) add(parsed.username);
  for (const [name, value] of parsed.searchParams) if (SECRET_PARAM.test(name) && value) found.push(value);
  return [...new Set(found)].filter((s) => s.length > 0);
}

// A URL in an error's text, up to a space or a quote: all of it may be a secret (a key in the path).
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*):\/\/[^\s"'<>]*/gi;

/**
 * An error of a JSON-RPC client (ethers) as it may be kept as a cause and logged: its code and short message. Its
 * full message repeats the request, URL included, and a provider's key is often part of the URL's path
 * (`https://eth-mainnet.example/v2/<key>`), where `maskUrl` cannot tell it from a route. Any other error that carries
 * a URL (Node's `Invalid URL` TypeError keeps it as `input`, a fetch error in its message) is copied without it, every
 * URL of its message reduced to its scheme. Other errors are returned as they are.
 */
export function rpcFailure(err: unknown): unknown {
  const e = err as { code?: unknown; shortMessage?: unknown; message?: unknown; name?: unknown; input?: unknown } | null;
  const withCode = (kept: Error) => Object.assign(kept, typeof e?.code === "string" ? { code: e.code } : {});
  if (typeof e?.shortMessage === "string") return withCode(new Error(e.shortMessage));
  if (typeof e !== "object" || e === null || typeof e.message !== "string") return err;
  URL_IN_TEXT.lastIndex = 0;
  if (!("input" in e) && !URL_IN_TEXT.test(e.message)) return err;
  const kept = withCode(new Error(e.message.replace(URL_IN_TEXT, "$1://***")));
  if (typeof e.name === "string") kept.name = e.name;
  return kept;
}

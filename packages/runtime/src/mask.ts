// Connection URLs as they may be logged: passwords, tokens and secret query parameters replaced by ***.

const SECRET_PARAM = /pass|secret|token|key/i;
// NATS takes a bare token as the user part (nats://<token>@host), so there the user is a secret too.
const TOKEN_USER_SCHEMES = new Set(["nats:", "tls:"]);

/**
 * `url` with its credentials masked: `postgres://app:s3cret@db:5432/x` -> `postgres://app:***@db:5432/x`.
 * A URL that cannot be parsed is reduced to its scheme, so nothing in it can leak.
 */
export function maskUrl(url: string): string {
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

/** The secrets of `url` (password, token user, secret query values), to scrub from other text such as a driver's error message. */
export function secretsOf(url: string): string[] {
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

/**
 * An error of a JSON-RPC client (ethers) as it may be kept as a cause and logged: its code and short message. Its
 * full message repeats the request, URL included, and a provider's key is often part of the URL's path
 * (`https://eth-mainnet.example/v2/<key>`), where `maskUrl` cannot tell it from a route. Other errors are returned as
 * they are.
 */
export function rpcFailure(err: unknown): unknown {
  const e = err as { code?: unknown; shortMessage?: unknown } | null;
  if (typeof e?.shortMessage !== "string") return err;
  return Object.assign(new Error(e.shortMessage), typeof e.code === "string" ? { code: e.code } : {});
}

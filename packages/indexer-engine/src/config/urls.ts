// URLs of the config: the shapes the clients can use, checked without ever repeating a URL, which may hold a password.

/** The rule a stateStoreUrl with another scheme breaks. */
export const REDIS_SCHEME = "must begin with redis:// or rediss://";
/** The rule a stateStoreUrl the Redis client cannot read, or one without a host, breaks. */
export const REDIS_SHAPE =
  "must be a well-formed URL with a host: redis[s]://[user:password@]host[:port][/db], special characters of user and password percent-encoded";
/** The rule a stateStoreUrl whose path is not a database number breaks. */
export const REDIS_DB = "must end in a database number when it has a path: redis://host:6379/0";

/** `value` parsed, or undefined where the WHATWG parser refuses it (URL.parse is not in Node 20). */
function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * True when `value` is an http:// or https:// URL with a host. The scheme is checked as written (the parser would
 * accept "HTTPS:" and add a missing host's slashes); the parser then refuses what no request could reach, such as a
 * space inside the host or a port past 65535.
 */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s/]/.test(value) && (parse(value)?.hostname ?? "") !== "";
}

/**
 * Why `value` is not a Redis URL the state store can connect with (REDIS_SCHEME, REDIS_SHAPE or REDIS_DB), or
 * undefined when it is one. These are the checks the Redis client makes when it is created, which it reports as a
 * TypeError holding the whole URL, plus a host: the client takes an empty one for 127.0.0.1.
 */
export function redisUrlProblem(value: string): string | undefined {
  if (!value.startsWith("redis://") && !value.startsWith("rediss://")) return REDIS_SCHEME;
  const url = parse(value);
  if (url === undefined || url.hostname === "") return REDIS_SHAPE;
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return REDIS_SHAPE;
  }
  return /^(\/\d*)?$/.test(url.pathname) ? undefined : REDIS_DB;
}

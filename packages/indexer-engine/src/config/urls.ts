// URLs of the config: the shapes the clients can use, checked without ever repeating a URL, which may hold a password.
import { hostUrlProblem } from "@pointwise/config";

/** The rule a stateStoreUrl with another scheme breaks. */
export const REDIS_SCHEME = "must begin with redis:// or rediss://";
/** The rule a stateStoreUrl the Redis client cannot read, or one without a host, breaks. */
export const REDIS_SHAPE =
  "must be a well-formed URL with a host: redis[s]://[user:password@]host[:port][/db], special characters of user and password percent-encoded";
/** The rule a stateStoreUrl whose path is not a database number breaks. */
export const REDIS_DB = "must end in a database number when it has a path: redis://host:6379/0";

const HTTP_SCHEMES = ["http", "https"];
const REDIS_SCHEMES = ["redis", "rediss"];

/**
 * Why `value` is not an http:// or https:// endpoint the indexer can send requests to, or undefined when it is one:
 * RPC_URL's rule and words, for the config's URLs and the RPC client alike. With `keyIn`, for an endpoint fetch
 * requests, a user name or password is refused too (`must not hold a user name or password: send the key in
 * <keyIn>`): fetch refuses such a URL with an error that quotes it whole. The RPC client sends them as basic auth.
 */
export function httpUrlProblem(value: string, keyIn?: string): string | undefined {
  return hostUrlProblem(value, HTTP_SCHEMES, { keyIn }) ?? undefined;
}

/**
 * Why `value` is not a Redis URL the state store can connect with (REDIS_SCHEME, REDIS_SHAPE or REDIS_DB), or
 * undefined when it is one: the shared rules of a connection URL (parsed, a host, a port from 1 to 65535; the client
 * takes an empty host for 127.0.0.1), plus the checks the Redis client makes when it is created, which it reports as
 * a TypeError holding the whole URL. The messages say the Redis URL's own shape rather than the shared words.
 */
export function redisUrlProblem(value: string): string | undefined {
  if (!REDIS_SCHEMES.some((s) => value.startsWith(`${s}://`))) return REDIS_SCHEME;
  if (hostUrlProblem(value, REDIS_SCHEMES) !== null) return REDIS_SHAPE;
  const url = new URL(value);
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return REDIS_SHAPE;
  }
  return /^(\/\d*)?$/.test(url.pathname) ? undefined : REDIS_DB;
}

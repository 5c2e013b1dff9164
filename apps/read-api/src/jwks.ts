// Portal keys published as a JWKS (PORTAL_JWKS_URL): fetched, pinned one algorithm per key, refetched for an unknown key id.
import { createPublicKey, type KeyObject } from "node:crypto";
import { RetryableError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";

/** An asymmetric algorithm a published key may carry: ES256 for a P-256 key, RS256 for an RSA key of 2048 bits or more. */
export type JwksAlgorithm = "ES256" | "RS256";

/** One usable published key. */
export interface PublishedKey {
  key: KeyObject;
  alg: JwksAlgorithm;
}

/** The keys of a JWKS endpoint, kept in memory. */
export interface JwksSource {
  /** The key with this id, as last fetched. */
  keyFor(kid: string): PublishedKey | undefined;
  /** Fetches the set when `kid` is unknown (at most once per `minRefreshMs`) or the copy is older than `maxAgeMs`. */
  refreshFor(kid: string): Promise<void>;
}

/** How a JWKS is fetched and kept. */
export interface JwksOptions {
  url: string;
  logger: Logger;
  /** Least time between two fetches caused by unknown key ids (ms). */
  minRefreshMs?: number;
  /** Age after which the set is fetched again on the next token (ms). */
  maxAgeMs?: number;
  timeoutMs?: number;
}

// Only what the key itself says decides its algorithm; a JWK's `alg` must agree or the key is skipped.
function usable(jwk: Record<string, unknown>): PublishedKey | null {
  if (jwk.use !== undefined && jwk.use !== "sig") return null;
  // A published private key is a leaked key: never trusted, whatever it would verify.
  if (jwk.d !== undefined) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as never, format: "jwk" });
  } catch {
    return null;
  }
  if (key.type !== "public") return null;
  let alg: JwksAlgorithm | null = null;
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") alg = "ES256";
  if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048) alg = "RS256";
  if (alg === null || (jwk.alg !== undefined && jwk.alg !== alg)) return null;
  return { key, alg };
}

/** Reads the keys of a JWKS endpoint as tokens ask for them. */
export function createJwksSource(options: JwksOptions): JwksSource {
  const minRefreshMs = options.minRefreshMs ?? 30_000;
  const maxAgeMs = options.maxAgeMs ?? 600_000;
  let keys = new Map<string, PublishedKey>();
  let fetchedAt = 0;
  let loaded = false;
  let inFlight: Promise<void> | null = null;

  async function load(): Promise<void> {
    fetchedAt = Date.now();
    const res = await fetch(options.url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000), headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(`JWKS answered HTTP ${res.status}`);
    const body = (await res.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error("JWKS has no keys array");
    const next = new Map<string, PublishedKey>();
    for (const jwk of body.keys as Record<string, unknown>[]) {
      const found = typeof jwk?.kid === "string" ? usable(jwk) : null;
      if (found) next.set(jwk.kid as string, found);
    }
    keys = next;
    loaded = true;
  }

  function fetchOnce(): Promise<void> {
    inFlight ??= load()
      .catch((err) => {
        options.logger.warn({ err, url: options.url }, "portal JWKS fetch failed");
        // Without any keys yet no portal token can be checked: a fault of ours, not of the token.
        if (!loaded) throw new RetryableError("jwks-unavailable", "the portal's signing keys could not be fetched; try again", { cause: err });
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  return {
    keyFor: (kid) => keys.get(kid),
    async refreshFor(kid) {
      const age = Date.now() - fetchedAt;
      if (!loaded || age > maxAgeMs || (!keys.has(kid) && age > minRefreshMs)) await fetchOnce();
    },
  };
}

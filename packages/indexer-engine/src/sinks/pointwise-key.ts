// The pointwise sink's start-up check: the API key is valid and belongs to the campaign whose event types it maps to.
import { BaseError, RetryableError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import type { EarnMapping } from "../config/schema";
import { invalidApiKey } from "../symptoms";
import { retryAfterMs, retryTransient } from "../util/retry";

/** What the ingest API's `GET /api/rest/api-key` says about a key. */
export interface ApiKeyInfo {
  campaign_id: string;
  /** True when the key may report events older than the ingest API's age limit (back to the campaign's start). */
  backfill: boolean;
  /** The campaign's registered event types that are not retired (lowercase UUIDs). */
  event_types: string[];
}

/** Settings of the key check. */
export interface KeyCheckOptions {
  baseUrl: string;
  apiKey: string;
  events: Readonly<Record<string, EarnMapping>>;
  /** When set, the key must belong to this campaign. */
  campaignId?: string;
  logger: Logger;
  /** Attempts while the API answers a transient failure (starting, rate-limited, internal, unreachable, a gateway's 429, 502-504 or 520-524 without an API code). */
  maxAttempts?: number;
  retryBaseMs?: number;
  signal?: AbortSignal;
}

interface ApiError {
  message?: string;
  extensions?: { code?: string };
}

// Answers after which the same request can succeed a little later.
const TRANSIENT: ReadonlySet<string | undefined> = new Set(["rate-limited", "service-unavailable", "starting", "internal"]);
// Statuses a proxy or load balancer in front of the API answers with a page of its own while the API is briefly out of
// reach or overloaded. The API itself answers every failure with HTTP 200 and a code, so these count only without one;
// any other status without a code (404 from a wrong path, a 500 page) is not the API and retrying cannot change that.
// 520 to 524 are Cloudflare's: the origin answered nothing usable, refused or timed out the connection, or was unreachable.
export const GATEWAY_TRANSIENT: ReadonlySet<number> = new Set([429, 502, 503, 504, 520, 521, 522, 523, 524]);

/** The failure logged and thrown for a gateway's answer without an ingest API code (a status of GATEWAY_TRANSIENT). */
export const gatewayFailure = (status: number): string => `HTTP ${status}, not an answer of the ingest API`;
// A genuine key that cannot send events is as unusable as a wrong one: the user must use another key.
const KEY_REFUSED: ReadonlySet<string | undefined> = new Set(["missing-api-key", "invalid-api-key", "campaign-archived"]);

/** Why a key does not fit the sink's config, or undefined when it does. */
export function keyMismatch(info: ApiKeyInfo, events: Readonly<Record<string, EarnMapping>>, campaignId: string | undefined): string | undefined {
  if (campaignId !== undefined && info.campaign_id !== campaignId)
    return `the key belongs to campaign ${info.campaign_id}, not ${campaignId} (sinkConfig campaignId); use the campaign's key`;
  const registered = new Set(info.event_types.map((id) => id.toLowerCase()));
  const missing = Object.entries(events)
    .filter(([, mapping]) => !registered.has(mapping.regEventId.toLowerCase()))
    .map(([activity, mapping]) => `events.${activity}.regEventId ${mapping.regEventId}`);
  if (missing.length > 0)
    return `campaign ${info.campaign_id} of this key has no active event type for ${missing.join(", ")}; use the key of the campaign that registered them`;
  return undefined;
}

function parseInfo(data: unknown): ApiKeyInfo | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { campaign_id, backfill, event_types } = data as Record<string, unknown>;
  if (typeof campaign_id !== "string" || typeof backfill !== "boolean") return undefined;
  if (!Array.isArray(event_types) || !event_types.every((t): t is string => typeof t === "string")) return undefined;
  return { campaign_id, backfill, event_types };
}

/**
 * Asks the ingest API (`GET {baseUrl}/api/rest/api-key`) which campaign the key belongs to and checks that the
 * campaign has every event type the sink maps to (and is the configured campaign, when one is given). A missing,
 * wrong, revoked or archived-campaign key, or a key of another campaign, throws the `Invalid API Key` symptom;
 * an API that keeps failing throws `pointwise-api-unavailable`. Returns what the API said.
 */
export async function checkPointwiseKey(options: KeyCheckOptions): Promise<ApiKeyInfo> {
  const { logger, signal } = options;
  const url = `${options.baseUrl.replace(/\/$/, "")}/api/rest/api-key`;
  const maxAttempts = options.maxAttempts ?? 6;
  const baseMs = options.retryBaseMs ?? 500;
  return retryTransient<ApiKeyInfo>(
    {
      maxAttempts,
      baseMs,
      maxMs: baseMs * 16,
      stop: { signal, error: () => new RetryableError("pointwise-api-interrupted", "stopped while checking the Pointwise API key") },
      exhausted: (failure) => new RetryableError("pointwise-api-unavailable", `Pointwise API key check failed ${maxAttempts} times: ${failure}`),
      onRetry: ({ attempt, failure, delayMs }) => logger.warn({ attempt, failure, delayMs }, "Pointwise API key check not answered yet, retrying"),
    },
    async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${options.apiKey}` }, signal: AbortSignal.timeout(15_000) });
      const body = (await res.json().catch(() => undefined)) as { data?: unknown; errors?: ApiError[] } | undefined;
      const code = body?.errors?.[0]?.extensions?.code;
      // Stryker disable next-line OptionalChaining: a refused code was read through these same links, so none of them is missing here
      if (KEY_REFUSED.has(code)) throw invalidApiKey({ details: { code, reason: body?.errors?.[0]?.message } });
      const info = parseInfo(body?.data);
      if (info !== undefined) {
        const mismatch = keyMismatch(info, options.events, options.campaignId);
        if (mismatch !== undefined) throw invalidApiKey({ details: { code: "wrong-campaign", campaign_id: info.campaign_id, reason: mismatch } });
        logger.info({ campaign_id: info.campaign_id, backfill: info.backfill, event_types: info.event_types.length }, "Pointwise API key checked");
        return { done: true, value: info };
      }
      // The ingest API asks for a wait with rate-limited and starting, as a gateway may with 429 or 503.
      const retryAfter = retryAfterMs(res.headers.get("retry-after"));
      if (code === undefined && GATEWAY_TRANSIENT.has(res.status)) return { done: false, failure: gatewayFailure(res.status), retryAfterMs: retryAfter };
      if (TRANSIENT.has(code)) return { done: false, failure: code as string, retryAfterMs: retryAfter }; // one of TRANSIENT's codes
      throw new BaseError(
        "pointwise-api-key-check-failed",
        `${url} did not answer the API key check (HTTP ${res.status}${code === undefined ? "" : `, ${code}`}): check the pointwise sink's baseUrl`,
        { details: { status: res.status, ...(code === undefined ? {} : { code }) } },
      );
    },
  );
}

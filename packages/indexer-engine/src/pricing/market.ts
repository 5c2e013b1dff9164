// Client for a CoinGecko-compatible price API: per-day samples, cached, rate-spaced and retried.
import { setTimeout as sleep } from "node:timers/promises";
import { AuthError, BaseError, ConfigError, RetryableError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { Dec } from "../decimal";
import { Lru } from "../util/lru";
import { retryAfterMs, retryTransient } from "../util/retry";
import { IntervalLimiter } from "./limiter";

/** Settings of the market price client. */
export interface MarketPriceOptions {
  /** Base URL of a CoinGecko-compatible API, e.g. https://api.coingecko.com/api/v3. */
  baseUrl: string;
  apiKey: string;
  /** Requests per minute the key allows (the free tier allows about 30). */
  ratePerMinute: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  logger: Logger;
  now?: () => number;
}

/** One price sample: Unix ms and USD price. */
export type PriceSample = readonly [number, Dec];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

interface Bucket {
  fetchedAt: number;
  samples: Promise<PriceSample[]>;
}

/**
 * A client for a CoinGecko-compatible price API. Prices are fetched per asset and UTC day
 * (`/coins/{id}/market_chart/range`), cached, requests are spaced to the key's rate limit, and 429, 5xx and
 * network failures are retried with backoff (a 429's Retry-After honoured, at most a minute). The price at a time is the last sample
 * at or before it.
 */
export class MarketPriceClient {
  readonly #limiter: IntervalLimiter;
  readonly #cache = new Lru<string, Bucket>(2_000);
  readonly #now: () => number;
  readonly #headerName: string;
  /** HTTP requests sent (cache misses and retries), for tests and diagnostics. */
  requests = 0;

  constructor(private readonly options: MarketPriceOptions) {
    this.#limiter = new IntervalLimiter(options.ratePerMinute);
    this.#now = options.now ?? Date.now;
    // CoinGecko's paid plan has its own host and header; everything else gets the free (demo) header.
    this.#headerName = /\/\/pro-api\./.test(options.baseUrl) ? "x-cg-pro-api-key" : "x-cg-demo-api-key";
  }

  /** The USD price of market id `id` at `tsMs`, or undefined when the API has no sample at or before it that day. */
  async priceAt(id: string, tsMs: number): Promise<Dec | undefined> {
    const day = Math.floor(tsMs / DAY_MS) * DAY_MS;
    const key = `${id}:${day}`;
    let bucket = this.#cache.get(key);
    // A time after the fetch lies in a day that was still running then (tsMs is before the day's end): it may have
    // newer samples now.
    if (bucket !== undefined && tsMs > bucket.fetchedAt) bucket = undefined;
    if (bucket === undefined) {
      bucket = { fetchedAt: this.#now(), samples: this.#fetchRange(id, day - HOUR_MS, day + DAY_MS) };
      this.#cache.set(key, bucket);
      const failed = bucket;
      // A failed fetch is not cached: the next lookup tries again.
      failed.samples.catch(() => {
        if (this.#cache.get(key) === failed) this.#cache.delete(key);
      });
    }
    const samples = await bucket.samples;
    let price: Dec | undefined;
    for (const [t, p] of samples) {
      if (t > tsMs) break;
      price = p;
    }
    return price;
  }

  async #fetchRange(id: string, fromMs: number, toMs: number): Promise<PriceSample[]> {
    const url = `${this.options.baseUrl.replace(/\/$/, "")}/coins/${encodeURIComponent(id)}/market_chart/range?vs_currency=usd&from=${Math.floor(fromMs / 1000)}&to=${Math.floor(toMs / 1000)}`;
    const maxAttempts = this.options.maxAttempts ?? 5;
    return retryTransient<PriceSample[]>(
      {
        maxAttempts,
        baseMs: this.options.retryBaseMs ?? 500,
        maxMs: 30_000,
        exhausted: (failure) => new RetryableError("price-api-unavailable", `price API failed for ${id} after ${maxAttempts} attempts: ${failure}`),
        onRetry: ({ attempt, failure, delayMs }) => {
          // The pause holds every request to the API, not only this retry: the next attempt waits for it in the limiter.
          this.#limiter.pauseUntil(this.#now() + delayMs);
          this.options.logger.warn({ id, attempt, failure, delayMs }, "price request failed, retrying");
        },
        wait: async () => undefined,
      },
      async () => {
        const wait = this.#limiter.reserve(this.#now());
        if (wait > 0) await sleep(wait);
        // When the wait ran late, the next request is spaced from this send, not from its slot.
        this.#limiter.sent(this.#now());
        this.requests++;
        const res = await fetch(url, { headers: { accept: "application/json", [this.#headerName]: this.options.apiKey }, signal: AbortSignal.timeout(20_000) });
        if (res.ok) return { done: true, value: parseSamples(await res.json(), id) };
        if (res.status === 401 || res.status === 403) throw new AuthError("price-api-key-rejected", "PRICE_API_KEY was rejected by the price API");
        if (res.status === 404) throw new ConfigError(`market price id ${id} is unknown to the price API`);
        if (res.status !== 429 && res.status < 500) throw new BaseError("price-api-failed", `price API answered ${res.status} for ${id}`);
        // Only a rate limit's Retry-After counts: a failing server gets the plain backoff whatever it asks.
        return { done: false, failure: `HTTP ${res.status}`, retryAfterMs: res.status === 429 ? retryAfterMs(res.headers.get("retry-after")) : undefined };
      },
    );
  }
}

function parseSamples(body: unknown, id: string): PriceSample[] {
  const prices = (body as { prices?: unknown })?.prices;
  if (!Array.isArray(prices)) throw new BaseError("price-api-failed", `price API answer for ${id} has no prices array`);
  return prices
    .filter((p): p is [number, number] => Array.isArray(p) && typeof p[0] === "number" && Number.isFinite(p[1]))
    .map(([t, p]) => [t, new Dec(String(p))] as const)
    .sort((a, b) => a[0] - b[0]);
}

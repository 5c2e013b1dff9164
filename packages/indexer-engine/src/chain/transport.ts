// JSON-RPC over HTTP(S) for the chain reader: keep-alive, batches, bounded concurrency, a calls-per-second limit,
// timeouts and retries with backoff. Response bodies are gathered as buffers and decoded once, natively.
import { isAscii } from "node:buffer";
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@pointwise/logger";
import { httpUrlProblem } from "../config/urls";
import { rpcConnectionFailed } from "../symptoms";
import { backoffMs, retryAfterMs, stretchToRetryAfter } from "../util/retry";
import { Semaphore, TokenBucket } from "./limits";

/** A JSON-RPC error answered by the node (as opposed to a failed connection). */
export class RpcResponseError extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Settings of a transport; the defaults suit a node of one's own, hosted providers want `callsPerSecond`. */
export interface RpcTransportOptions {
  url: string;
  logger: Logger;
  /** Longest wait for one HTTP exchange, from sending to the last byte of the answer. */
  timeoutMs?: number;
  /** HTTP requests in flight at once. */
  concurrency?: number;
  /** JSON-RPC calls per second (each call of a batch counts); 0 for no limit. */
  callsPerSecond?: number;
  /** Calls per HTTP request; 1 sends no batches. */
  batchSize?: number;
  /** Attempts per request before giving up with RPC Connection Failed. */
  maxAttempts?: number;
  /** Attempts while the endpoint says it is rate limited (HTTP 429 or a rate-limit JSON-RPC error); at least maxAttempts. */
  rateLimitAttempts?: number;
  retryBaseMs?: number;
}

/** One JSON-RPC call. */
export interface RpcCall {
  method: string;
  params: readonly unknown[];
}

/** A call's answer: its result, or the node's JSON-RPC error. */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: RpcResponseError };

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/**
 * Why an exchange failed as a whole: the endpoint rejected the key (no retry), said it is rate limited (more attempts,
 * longer waits, its Retry-After honoured), or failed otherwise (connection, timeout, 5xx, a malformed answer).
 */
export type Failure = { reason: string } & ({ kind: "denied" | "failed" } | { kind: "rate-limited"; retryAfterMs?: number });

/** A failure that is neither a rejected key nor a rate limit. */
const failed = (reason: string): Failure => ({ reason, kind: "failed" });

/**
 * The wait before retrying an exchange whose attempt `attempt` (from 0) failed: a backoff with jitter from `baseMs` up
 * to 8 s; while rate limited up to 30 s, or as long as Retry-After asks when that is longer, at most a minute.
 */
export function retryWaitMs(failure: Failure, attempt: number, baseMs: number): number {
  return failure.kind === "rate-limited" ? stretchToRetryAfter(backoffMs(attempt, baseMs, 30_000), failure.retryAfterMs) : backoffMs(attempt, baseMs, 8_000);
}
const RATE_LIMITED = /rate limit|too many requests|exceeded.*(capacity|quota)|daily request count/i;

// Stryker disable next-line StringLiteral: an absent message reads as "" or as any other text without a rate-limit phrase alike
const isRateLimitError = (e: Answer["error"]) => e !== undefined && (e.code === 429 || RATE_LIMITED.test(String(e.message ?? "")));

/**
 * JSON-RPC client over node:http/https. Calls are sent in batches of `batchSize` with at most `concurrency` HTTP
 * requests in flight and at most `callsPerSecond` calls per second. Failed exchanges (connection errors, timeouts,
 * HTTP 429 and 5xx, rate-limit errors) are retried with exponential backoff and jitter, honouring Retry-After;
 * when they persist, or the endpoint rejects the key (401/403), the error is RPC Connection Failed.
 */
export class RpcTransport {
  readonly #url: URL;
  readonly #agent: HttpAgent;
  readonly #send: typeof httpRequest;
  readonly #log: Logger;
  readonly #slots: Semaphore;
  readonly #bucket: TokenBucket;
  readonly #timeoutMs: number;
  readonly #batchSize: number;
  /** Attempts per request by how it fails: a rejected key is not retried. */
  readonly #attempts: Record<Failure["kind"], number>;
  readonly #retryBaseMs: number;
  #nextId = 1;
  /** JSON-RPC calls sent, retries included (each call of a batch counts), for diagnostics and benchmarks. */
  calls = 0;

  /**
   * Refuses an endpoint that is no http(s) URL with a host with RPC Connection Failed, without quoting the URL: the
   * config's own check, again for callers that build a transport from neither a parsed config nor the environment.
   */
  constructor(options: RpcTransportOptions) {
    if (httpUrlProblem(options.url) !== undefined)
      throw rpcConnectionFailed({ details: { reason: "the RPC URL is not a well-formed http:// or https:// URL with a host" } });
    this.#url = new URL(options.url);
    const concurrency = Math.max(1, options.concurrency ?? 8);
    const https = this.#url.protocol === "https:";
    const agentOptions = { keepAlive: true, maxSockets: concurrency };
    this.#agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    // Stryker disable next-line ConditionalExpression: the agent chosen above decides the protocol, and http.request and https.request send the same request through it
    this.#send = https ? httpsRequest : httpRequest;
    this.#log = options.logger;
    this.#slots = new Semaphore(concurrency);
    this.#bucket = new TokenBucket(options.callsPerSecond ?? 0);
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#batchSize = Math.max(1, options.batchSize ?? 50);
    const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.#attempts = { denied: 1, failed: maxAttempts, "rate-limited": Math.max(maxAttempts, options.rateLimitAttempts ?? 12) };
    this.#retryBaseMs = options.retryBaseMs ?? 250;
  }

  /** One call; the node's JSON-RPC error is thrown as RpcResponseError. */
  async call<T>(method: string, params: readonly unknown[]): Promise<T> {
    // #exchange returns only once every call has an outcome.
    const outcome = (await this.#exchange([{ method, params }]))[0] as RpcOutcome;
    if (!outcome.ok) throw outcome.error;
    return outcome.result as T;
  }

  /** Many calls, in batches sent concurrently; answers in the order of `calls`. No calls send no request. */
  async batch(calls: readonly RpcCall[]): Promise<RpcOutcome[]> {
    const chunks: RpcCall[][] = [];
    for (let i = 0; i < calls.length; i += this.#batchSize) chunks.push(calls.slice(i, i + this.#batchSize));
    return (await Promise.all(chunks.map((c) => this.#exchange(c)))).flat();
  }

  /** Closes the kept-alive connections; requests in flight fail. */
  close(): void {
    this.#agent.destroy();
  }

  /** Sends calls as one HTTP request, retrying those that failed transiently, until each has an answer. */
  async #exchange(calls: readonly RpcCall[]): Promise<RpcOutcome[]> {
    // Stryker disable next-line ArrayDeclaration: every index is set before the array is returned, so preallocating its length is unobservable
    const outcomes: (RpcOutcome | undefined)[] = new Array(calls.length);
    let pending = calls.map((_, i) => i);
    for (let attempt = 0; ; attempt++) {
      const answers = await this.#post(pending.map((i) => calls[i] as RpcCall));
      let failure: Failure;
      if (Array.isArray(answers)) {
        const retry: number[] = [];
        let limited = false;
        pending.forEach((index, k) => {
          const answer = answers[k];
          if (answer !== undefined && isRateLimitError(answer.error)) limited = true;
          if (answer === undefined || isRateLimitError(answer.error)) retry.push(index);
          else if (answer.error !== undefined)
            outcomes[index] = { ok: false, error: new RpcResponseError(Number(answer.error.code ?? -32603), String(answer.error.message ?? "")) };
          else outcomes[index] = { ok: true, result: answer.result };
        });
        if (retry.length === 0) return outcomes as RpcOutcome[];
        failure = limited ? { reason: "rate limited", kind: "rate-limited" } : failed("answer missing");
        pending = retry;
      } else failure = answers;

      const method = (calls[pending[0] as number] as RpcCall).method;
      if (attempt + 1 >= this.#attempts[failure.kind]) {
        throw rpcConnectionFailed({
          cause: new Error(failure.reason),
          details: {
            method,
            attempts: attempt + 1,
            reason: failure.kind === "denied" ? "endpoint rejected the request (key invalid or expired)" : "endpoint unreachable or rate limited",
          },
        });
      }
      const wait = retryWaitMs(failure, attempt, this.#retryBaseMs);
      this.#log.warn(
        { method, calls: pending.length, attempt: attempt + 1, rate_limited: failure.kind === "rate-limited", wait_ms: wait, err: failure.reason },
        "RPC request failed, retrying",
      );
      await sleep(wait);
    }
  }

  /** One HTTP exchange: the answers in the order of `calls` (undefined where one is missing), or why it failed. */
  async #post(calls: readonly RpcCall[]): Promise<(Answer | undefined)[] | Failure> {
    const first = this.#nextId;
    this.#nextId += calls.length;
    const payload = calls.map((c, k) => ({ jsonrpc: "2.0", id: first + k, method: c.method, params: c.params }));
    const body = JSON.stringify(calls.length === 1 ? payload[0] : payload);
    await this.#bucket.take(calls.length);
    const release = await this.#slots.acquire();
    this.calls += calls.length;
    let response: { status: number; headers: IncomingHttpHeaders; text: string };
    try {
      response = await this.#request(body, calls.length);
    } catch (err) {
      return failed((err as Error).message);
    } finally {
      release();
    }
    const { status, headers, text } = response;
    if (status === 401 || status === 403) return { reason: `HTTP ${status}`, kind: "denied" };
    if (status === 429) return { reason: "HTTP 429", kind: "rate-limited", retryAfterMs: retryAfterMs(headers["retry-after"]) };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failed(`HTTP ${status} with a body that is not JSON`);
    }
    // Some endpoints answer a JSON-RPC error with a 4xx status; a 5xx is the server failing whatever the body says.
    // Retry-After is honoured only while rate limited; a failing server gets the plain backoff (at most 8 s) whatever it asks.
    if (status >= 500 || (status !== 200 && !isAnswer(parsed))) return failed(`HTTP ${status}`);
    if (!Array.isArray(parsed)) {
      const answer = parsed as Answer;
      // One error for a whole batch (batches refused, or a limit hit): every call gets it.
      if (calls.length === 1 || answer.error !== undefined) {
        // Stryker disable next-line OptionalChaining: isRateLimitError has just found answer.error defined
        if (isRateLimitError(answer.error)) return { reason: String(answer.error?.message), kind: "rate-limited" };
        return calls.map(() => answer);
      }
      return failed("a batch was answered with a single result");
    }
    const byId = new Map<unknown, Answer>();
    for (const a of parsed as Answer[]) byId.set(a?.id, a);
    return calls.map((_, k) => byId.get(first + k));
  }

  /** Sends one POST of `calls` calls and reads the whole answer: chunks gathered, joined once, decoded natively. */
  #request(body: string, calls: number): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
    return new Promise((resolve, reject) => {
      const req = this.#send(this.#url, {
        method: "POST",
        agent: this.#agent,
        headers: { "content-type": "application/json", accept: "application/json", "content-length": Buffer.byteLength(body) },
      });
      const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      req.once("error", (err) => {
        clearTimeout(timer);
        // A kept-alive connection the server closed just as this request went out on it (its idle timeout ran out):
        // sent again at once on another connection, not counted as a failed attempt (Node's http docs,
        // request.reusedSocket). Every call this transport sends is a read, so a second copy is harmless; the closed
        // connection leaves the pool, so this repeats at most once per idle connection, then a new one is opened.
        // The copy is a request like any other to the endpoint, so it takes its tokens of INDEXER_RPC_RPS too.
        if (req.reusedSocket && (err as NodeJS.ErrnoException).code === "ECONNRESET") {
          this.calls += calls;
          resolve(this.#bucket.take(calls).then(() => this.#request(body, calls)));
        } else reject(err);
      });
      req.once("response", (res) => {
        const chunks: Buffer[] = [];
        let length = 0;
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
        });
        // An answer cut off before its end raises "aborted" here (Node 20 and later), so there is no close to watch.
        res.once("error", (err) => {
          clearTimeout(timer);
          reject(err);
        });
        res.once("end", () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: decode(Buffer.concat(chunks, length)) });
        });
      });
      req.end(body);
    });
  }
}

/**
 * A body as text. JSON-RPC answers are ASCII in practice (hex data, numbers, names), and for ASCII bytes latin1 and
 * UTF-8 give the same text; on Node 20 the latin1 path is a plain copy, while UTF-8 decoding of the same bytes is about
 * ten times slower, the largest cost of reading a node's logs. Any other byte takes the UTF-8 path.
 */
function decode(body: Buffer): string {
  return isAscii(body) ? body.toString("latin1") : body.toString("utf8");
}

function isAnswer(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "object" && first !== null && ("result" in first || "error" in first);
}

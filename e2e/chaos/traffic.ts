// The chaos suite's clients: ingest streams (plain and with Idempotency-Key), read and admin loops, and what each was answered.
import { setTimeout as sleep } from "node:timers/promises";
import { seededRandom } from "@pointwise/testkit";
import { accountIdOf, centsToAmount, type EventKind, type SentEvent, USER_COUNT } from "./model";

/** Where the clients send and with what. */
export interface TrafficTarget {
  ingestUrl: string;
  readUrl: string;
  adminUrl: string;
  apiKey: string;
  adminToken: string;
  campaignId: string;
  regEventIds: Record<EventKind, string>;
  userIds: string[];
}

/** Everything the clients were answered, the ground truth the final checks compare against. */
export interface TrafficBook {
  /** Acknowledged events by the event id ingest answered, with the time of the answer. */
  acked: Map<string, SentEvent & { at: number }>;
  /** Events refused in a way that may still have stored them (bus-unavailable, no HTTP answer), by cents. */
  ambiguous: Map<bigint, SentEvent & { reason: string }>;
  /** Events refused before publishing (nothing stored, as documented), by cents. */
  refused: Map<bigint, SentEvent & { code: string }>;
  /** Refused events of plain requests by code ("transport" when no HTTP answer came). */
  refusedByCode: Map<string, number>;
  /** Failed attempts of keyed requests by code (each was retried). */
  keyedRefusalsByCode: Map<string, number>;
  /** Events of keyed requests that were never acknowledged before the deadline. */
  keyedUnacked: SentEvent[];
  sent: number;
  requests: number;
  keyedRequests: number;
  keyedRetries: number;
  /** Read API and admin API answers by "METHOD path-kind status". */
  reads: Map<string, number>;
  /** The first body of each kind of 5xx answer of the read and admin loops. */
  samples: Map<string, string>;
}

/** An empty book. */
export function newTrafficBook(): TrafficBook {
  return {
    acked: new Map(),
    ambiguous: new Map(),
    refused: new Map(),
    refusedByCode: new Map(),
    keyedRefusalsByCode: new Map(),
    keyedUnacked: [],
    sent: 0,
    requests: 0,
    keyedRequests: 0,
    keyedRetries: 0,
    reads: new Map(),
    samples: new Map(),
  };
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

// Codes after which the event may exist although the client was told no (docs/api/ingest.md,
// Durability): the publish ack was lost, or no answer came at all.
const AMBIGUOUS = new Set(["bus-unavailable", "transport", "http-error"]);

/** The running clients; `stop` ends them and waits for keyed requests to be acknowledged (up to a deadline). */
export interface Traffic {
  book: TrafficBook;
  stop(keyedDeadlineMs: number): Promise<void>;
}

/** An ingest answer as the clients read it: the JSON body, or why there is none. */
type Answer = { ok: true; body: { data?: unknown; errors?: { extensions: { code: string } }[] } } | { ok: false; reason: string };

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status !== 200) return { ok: false, reason: "http-error" };
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "transport" };
  }
}

/** Starts the clients: two plain ingest loops, two keyed ingest loops, a read-api loop and an admin-api loop. */
export function startTraffic(target: TrafficTarget, seed: number): Traffic {
  const book = newTrafficBook();
  let running = true;
  let keyedDeadline = Number.POSITIVE_INFINITY;
  let nextCents = 100n;
  const auth = { authorization: `Bearer ${target.apiKey}` };

  const makeEvent = (random: () => number): { sent: SentEvent; body: Record<string, string> } => {
    const user = Math.floor(random() * USER_COUNT);
    const kind: EventKind = random() < 0.7 ? "trade" : "checkin";
    // Every event gets an amount no other event has, so an event found in the log that no
    // acknowledgement names can be traced to the request that sent it.
    const cents = nextCents++;
    book.sent += 1;
    return {
      sent: { user, kind, cents },
      body: { account_id: accountIdOf(user), identity_type: "DISCORD_PROVIDER_ID", amount: centsToAmount(cents), reg_event_id: target.regEventIds[kind] },
    };
  };
  const refuse = (e: SentEvent, code: string) => {
    bump(book.refusedByCode, code);
    if (AMBIGUOUS.has(code)) book.ambiguous.set(e.cents, { ...e, reason: code });
    else book.refused.set(e.cents, { ...e, code });
  };
  const ack = (e: SentEvent, id: string) => book.acked.set(id, { ...e, at: Date.now() });

  async function plainLoop(index: number): Promise<void> {
    const random = seededRandom(seed + index);
    for (let n = 0; running; n++) {
      const size = n % 2 === 0 ? 1 : 5;
      const events = Array.from({ length: size }, () => makeEvent(random));
      book.requests += 1;
      const answer =
        size === 1
          ? await post(`${target.ingestUrl}/api/rest/earn-event`, events[0]!.body, auth)
          : await post(`${target.ingestUrl}/api/rest/earn-events`, { events: events.map((e) => e.body) }, auth);
      if (!answer.ok) for (const e of events) refuse(e.sent, answer.reason);
      else if (!answer.body.data) for (const e of events) refuse(e.sent, answer.body.errors?.[0]?.extensions.code ?? "no-code");
      else if (size === 1) ack(events[0]!.sent, (answer.body.data as { event_id: string }).event_id);
      else {
        const results = (answer.body.data as { results: { ok: boolean; event_id?: string; errors?: { extensions: { code: string } }[] }[] }).results;
        results.forEach((r, i) => {
          const e = events[i]!.sent;
          if (r.ok && r.event_id) ack(e, r.event_id);
          else refuse(e, r.errors?.[0]?.extensions.code ?? "no-code");
        });
      }
      await sleep(20);
    }
  }

  // Retried with the same key and body until acknowledged, as the indexer's sink does: each such
  // request must end up counted exactly once.
  async function keyedLoop(index: number): Promise<void> {
    const random = seededRandom(seed + 100 + index);
    for (let n = 0; running; n++) {
      const size = n % 2 === 0 ? 1 : 4;
      const events = Array.from({ length: size }, () => makeEvent(random));
      const headers = { ...auth, "idempotency-key": `chaos-${seed}-${index}-${n}` };
      book.keyedRequests += 1;
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) book.keyedRetries += 1;
        book.requests += 1;
        const answer =
          size === 1
            ? await post(`${target.ingestUrl}/api/rest/earn-event`, events[0]!.body, headers)
            : await post(`${target.ingestUrl}/api/rest/earn-events`, { events: events.map((e) => e.body) }, headers);
        if (answer.ok && answer.body.data) {
          if (size === 1) ack(events[0]!.sent, (answer.body.data as { event_id: string }).event_id);
          else {
            const results = (answer.body.data as { results: { event_id: string }[] }).results;
            for (const [i, r] of results.entries()) ack(events[i]!.sent, r.event_id);
          }
          break;
        }
        bump(book.keyedRefusalsByCode, answer.ok ? (answer.body.errors?.[0]?.extensions.code ?? "no-code") : answer.reason);
        if (Date.now() > keyedDeadline) {
          book.keyedUnacked.push(...events.map((e) => e.sent));
          for (const e of events) book.ambiguous.set(e.sent.cents, { ...e.sent, reason: "keyed-unacknowledged" });
          break;
        }
        await sleep(Math.min(1000, 100 * 2 ** Math.min(attempt, 4)));
      }
      await sleep(20);
    }
  }

  async function request(kind: string, url: string, init: RequestInit): Promise<void> {
    let status = "transport";
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      status = String(res.status);
      if (res.status >= 500 && !book.samples.has(`${kind} ${status}`)) book.samples.set(`${kind} ${status}`, text.slice(0, 300));
    } catch {}
    bump(book.reads, `${kind} ${status}`);
  }
  const get = (kind: string, url: string, headers: Record<string, string> = {}) => request(kind, url, { headers });

  async function readLoop(): Promise<void> {
    const random = seededRandom(seed + 200);
    while (running) {
      await get("read-api GET /leaderboard", `${target.readUrl}/leaderboard?campaign_id=${target.campaignId}&limit=100`);
      const user = target.userIds[Math.floor(random() * USER_COUNT)]!;
      await get("read-api GET /users/{id}/scores", `${target.readUrl}/users/${user}/scores`, { "x-api-key": target.apiKey });
      await sleep(50);
    }
  }

  async function adminLoop(): Promise<void> {
    const random = seededRandom(seed + 300);
    const headers = { authorization: `Bearer ${target.adminToken}` };
    for (let n = 0; running; n++) {
      const user = target.userIds[Math.floor(random() * USER_COUNT)]!;
      const url = `${target.adminUrl}/api/campaigns/${target.campaignId}/users/${user}`;
      await request("admin-api PATCH /users/{id}", url, {
        method: "PATCH",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ display_name: `player ${n}` }),
      });
      await get("admin-api GET /users/{id}", url, headers);
      await sleep(50);
    }
  }

  const loops = [plainLoop(1), plainLoop(2), keyedLoop(1), keyedLoop(2), readLoop(), adminLoop()];
  return {
    book,
    async stop(keyedDeadlineMs) {
      running = false;
      keyedDeadline = Date.now() + keyedDeadlineMs;
      await Promise.all(loops);
    },
  };
}

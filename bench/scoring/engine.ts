// The engine alone, in this process: applyEvents over the scoring benchmark's rule version and a
// log of the same shape (N events of N/20 users, a tenth of them referred), in batches as the worker
// cuts them, with user state round-tripped through JSON between batches as the jsonb column does.
// Prints microseconds per event, for the engine and, in the same run, for the decimal.js engine it
// replaced (packages/rules/test/reference). Profile with `node --cpu-prof --import tsx bench/scoring/engine.ts`.
//
//   node --import tsx bench/scoring/engine.ts [--events 200000] [--batch 2000] [--rounds 3]
import { randomUUID } from "node:crypto";
import { type ApplyInput, type ApplyResult, applyEvents, parseRuleVersion, type RawEvent, type UserState } from "@pointwise/rules";
import { applyEvents as referenceApplyEvents } from "../../packages/rules/test/reference/engine";
import { benchRules } from "./rules";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg("--events", 200_000);
const BATCH = arg("--batch", 2000);
const ROUNDS = arg("--rounds", 3);
const USERS = Math.max(10, Math.min(10_000, Math.floor(EVENTS / 20)));
const CAMPAIGN = "bnch-0001";
const REG = "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11";

const users = Array.from({ length: USERS }, () => randomUUID());
const started = Date.UTC(2026, 2, 2);
const events: RawEvent[] = Array.from({ length: EVENTS }, (_, i) => {
  const u = (i * 7919) % USERS;
  return {
    id: randomUUID(),
    seq: String(i + 1),
    campaignId: CAMPAIGN,
    userId: users[u] as string,
    regEventId: REG,
    identityType: "EVM_ADDRESS",
    amount: `${(i % 997) + 1}.25`,
    occurredAt: new Date(started + i * 1000).toISOString(),
    referrerId: u % 10 === 0 ? (users[(u + 1) % USERS] as string) : null,
  };
});

const rules = parseRuleVersion(benchRules(CAMPAIGN, REG));

function once(apply: (input: ApplyInput) => ApplyResult): { seconds: number; engineSeconds: number; entries: number } {
  const store = new Map<string, string>();
  let entries = 0;
  let engineMs = 0;
  const t0 = performance.now();
  for (let from = 0; from < events.length; from += BATCH) {
    const batch = events.slice(from, from + BATCH);
    const stored: Record<string, UserState> = {};
    for (const e of batch) {
      const s = store.get(e.userId);
      if (s !== undefined) stored[e.userId] = JSON.parse(s);
    }
    const e0 = performance.now();
    const result = apply({ rules, events: batch, users: stored });
    engineMs += performance.now() - e0;
    entries += result.entries.length;
    for (const [id, state] of Object.entries(result.users)) store.set(id, JSON.stringify(state));
  }
  return { seconds: (performance.now() - t0) / 1000, engineSeconds: engineMs / 1000, entries };
}

const engines: [string, (input: ApplyInput) => ApplyResult][] = [
  ["engine", applyEvents],
  ["decimal.js reference", referenceApplyEvents as (input: ApplyInput) => ApplyResult],
];
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, apply] of engines) {
    const { seconds, engineSeconds, entries } = once(apply);
    const us = (s: number) => `${((s * 1e6) / EVENTS).toFixed(1)} µs/event`;
    process.stdout.write(
      `round ${r + 1}, ${name}: ${EVENTS} events, ${entries} entries in ${seconds.toFixed(2)} s = ${us(seconds)}, of which applyEvents ${us(engineSeconds)} (${Math.round(EVENTS / engineSeconds)} events/s)\n`,
    );
  }
}

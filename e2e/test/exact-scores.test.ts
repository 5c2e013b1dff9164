/**
 * Scores read back exactly through the public read API and the admin API, from events sent to ingest
 * and scored by the worker: the token-style rows (18 decimals, 3 points per unit) as fixed cases,
 * and random amounts up to the largest ingest accepts under random rule parameters, each compared with
 * the ledger's sum worked out here with bigint from the amounts sent.
 */
import { waitUntil } from "@pointwise/testkit";
import fc from "fast-check";
import { parse } from "lossless-json";
import { call, OPERATOR, type Stack, signInOperator, startStack } from "./stack";

let stack: Stack;
let auth: Record<string, string>;

beforeAll(async () => {
  stack = await startStack();
  ({ auth } = await signInOperator(stack.admin.url, OPERATOR));
});
afterAll(async () => {
  await stack?.drop();
});

/** A response body with every JSON number kept as its literal text, as a lossless client reads it. */
// biome-ignore lint/suspicious/noExplicitAny: read field by field below
const exact = (text: string): any => parse(text, null, (literal: string) => literal);

/** A plain decimal as units / 10^scale. */
interface Dec {
  units: bigint;
  scale: number;
}
const dec = (text: string): Dec => {
  const [int = "", frac = ""] = text.split(".");
  return { units: BigInt(int + frac), scale: frac.length };
};
/** a x b x c cut towards zero to `places` places, as the rules promise for a base award. */
const awardOf = (amount: Dec, points: Dec, factor: Dec, places: number): bigint => {
  const product = amount.units * points.units * factor.units;
  const scale = amount.scale + points.scale + factor.scale;
  // In units of 10^-places; bigint division truncates, which is the floor for these non-negative values.
  return scale >= places ? product / 10n ** BigInt(scale - places) : product * 10n ** BigInt(places - scale);
};
/** units / 10^places in plain notation without trailing zeros: how a decimal's exact text looks. */
const textOf = (units: bigint, places: number): string => {
  if (places === 0) return units.toString();
  const digits = units.toString().padStart(places + 1, "0");
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/0+$/, "").replace(/\.$/, "");
};

interface Setup {
  campaignId: string;
  apiKey: string;
  regEventId: string;
}

/** A campaign with one `tok` currency paying `points` per unit (times `factor`) at `decimals` places, its rules active. */
async function campaignWith(decimals: number, points: string, factor: string): Promise<Setup> {
  const admin = stack.admin.url;
  const campaign = await call("POST", `${admin}/api/campaigns`, { name: "Exact", currencies: { tok: "Token" }, primary_currency: "tok" }, auth);
  const campaignId: string = campaign.body.id;
  const apiKey: string = (await call("POST", `${admin}/api/campaigns/${campaignId}/api-keys`, {}, auth)).body.key;
  const regEventId: string = (await call("POST", `${admin}/api/campaigns/${campaignId}/event-types`, { name: "deposit" }, auth)).body.reg_event_id;
  const document = {
    primaryCurrency: "tok",
    currencies: { tok: { name: "Token", decimals } },
    rules: [{ id: "deposit", regEventId, currency: "tok", base: { kind: "perUnit", points }, multipliers: [{ kind: "constant", factor }] }],
  };
  const rules = await call("POST", `${admin}/api/campaigns/${campaignId}/rule-versions`, { document }, auth);
  expect(rules.status).toBe(201);
  expect((await call("POST", `${admin}/api/campaigns/${campaignId}/rule-versions/1/activate`, {}, auth)).status).toBe(202);
  await waitUntil(
    async () => (await call("GET", `${admin}/api/campaigns/${campaignId}/rule-versions/1`, undefined, auth)).body.status === "active",
    15_000,
    "the rule version to become active",
  );
  return { campaignId, apiKey, regEventId };
}

async function send(setup: Setup, account: string, amount: string): Promise<void> {
  const body = { account_id: account, identity_type: "EMAIL", amount, reg_event_id: setup.regEventId };
  const res = await call("POST", `${stack.ingest.url}/api/rest/earn-event`, body, { authorization: `Bearer ${setup.apiKey}` });
  expect(res.body.errors ?? []).toEqual([]);
}

/**
 * Waits until the public leaderboard lists exactly the users expected (by total), then checks every
 * figure of it, of each user's scores and of the admin API's user detail against `expected`.
 */
async function expectExact(setup: Setup, expected: Map<string, string>): Promise<void> {
  const accounts = [...expected.keys()];
  const userOf = new Map<string, string>();
  const found = new Set<string>();
  // A user with no points has no score row, so is not on the board.
  const onBoard = accounts.filter((a) => expected.get(a) !== "0");
  let text = "";
  await waitUntil(
    async () => {
      // The worker creates a user with their first event; look up those not found yet.
      for (const account of accounts.filter((a) => !found.has(a))) {
        const user = await call("GET", `${stack.admin.url}/api/campaigns/${setup.campaignId}/users?identity_type=EMAIL&account_id=${account}`, undefined, auth);
        if (user.status !== 200) continue;
        userOf.set(user.body.id, account);
        found.add(account);
      }
      const res = await fetch(`${stack.read.url}/leaderboard?campaign_id=${setup.campaignId}`);
      text = await res.text();
      if (res.status !== 200) return false;
      const entries = exact(text).entries as { user_id: string; scores: { tok: { total: string } } }[];
      return entries.length === onBoard.length && entries.every((e) => e.scores.tok.total === expected.get(userOf.get(e.user_id) ?? ""));
    },
    20_000,
    "the leaderboard to show the expected totals",
  ).catch((err) => {
    throw new Error(`${err.message}\nexpected: ${JSON.stringify([...expected])}\nlast board: ${text}\nworker log:\n${stack.worker.output()}`);
  });
  for (const entry of exact(text).entries) {
    const want = expected.get(userOf.get(entry.user_id) ?? "") as string;
    expect(entry.scores.tok).toEqual({ score: want, referral_score: "0", total: want });
    // The literal itself, as the bytes carry it.
    expect(text).toContain(`"tok":{"score":${want},"referral_score":0,"total":${want}}`);
    const mine = await fetch(`${stack.read.url}/users/${entry.user_id}/scores`, { headers: { "x-api-key": setup.apiKey } });
    expect(mine.status).toBe(200);
    expect(exact(await mine.text()).scores.tok).toEqual({ score: want, referral_score: "0", total: want });
    const detail = await call("GET", `${stack.admin.url}/api/campaigns/${setup.campaignId}/users/${entry.user_id}`, undefined, auth);
    expect(detail.body.scores).toEqual([expect.objectContaining({ currency: "tok", score: want, referral_score: "0", total: want })]);
  }
}

describe("scores from ingested events read back exactly", () => {
  it("shows 3 x 0.123456789012345678 and 3 x 3074457345618258.6 with every digit on the leaderboard, user scores and admin API", async () => {
    const setup = await campaignWith(18, "3", "1");
    await send(setup, "small@exact.test", "0.123456789012345678");
    await send(setup, "large@exact.test", "3074457345618258.6");
    await expectExact(
      setup,
      new Map([
        ["small@exact.test", "0.370370367037037034"],
        ["large@exact.test", "9223372036854775.8"],
      ]),
    );
  });

  it("shows the ledger's exact sum for random amounts and rule parameters up to the documented limits", async () => {
    // A plain positive decimal with up to `intDigits` digits before the point and `places` after it.
    const decimal = (intDigits: number, places: number) =>
      fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** BigInt(intDigits) - 1n }), fc.integer({ min: 0, max: places }), fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }))
        .map(([int, scale, frac]) => textOf(int * 10n ** BigInt(scale) + (frac % 10n ** BigInt(scale)), scale))
        .filter((t) => t !== "0");
    // Amounts: ingest takes up to 30 digits before the point and 18 after; the extremes are always among the candidates.
    const amount = fc.oneof(decimal(30, 18), decimal(3, 18), fc.constantFrom("999999999999999999999999999999.999999999999999999", "0.000000000000000001"));
    const run = fc.record({
      decimals: fc.integer({ min: 0, max: 18 }),
      points: decimal(12, 18),
      factor: decimal(3, 6),
      users: fc.array(fc.array(amount, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(run, async ({ decimals, points, factor, users }) => {
        const setup = await campaignWith(decimals, points, factor);
        const expected = new Map<string, string>();
        for (const [u, amounts] of users.entries()) {
          const account = `u${n}-${u}@exact.test`;
          let sum = 0n;
          for (const a of amounts) {
            await send(setup, account, a);
            sum += awardOf(dec(a), dec(points), dec(factor), decimals);
          }
          expected.set(account, textOf(sum, decimals));
        }
        n += 1;
        await expectExact(setup, expected);
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 300_000);
});

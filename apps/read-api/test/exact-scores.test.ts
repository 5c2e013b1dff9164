// Scores read back with every digit the score rows hold, on all three endpoints and from the cache alike.
import { seedApiKey, seedCampaign, seedRuleVersion, seedScore, seedUser } from "@pointwise/testkit";
import { parse } from "lossless-json";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;

beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "60000" });
});
afterAll(async () => {
  await api?.close();
});

/** A response body with every JSON number kept as its literal text (what a lossless client reads). */
// biome-ignore lint/suspicious/noExplicitAny: read field by field below
const exact = (text: string): any => parse(text, null, (literal: string) => literal);

// Sums written out by hand: 9223372036854775.8 + 0.370370367037037034, and the 48-digit row + 1.000000000000000001.
const ROWS = [
  { score: "9223372036854775.8", referral: "0.370370367037037034", total: "9223372036854776.170370367037037034" },
  { score: "0.370370367037037034", referral: "0", total: "0.370370367037037034" },
  { score: "999999999999999999999999999999.999999999999999999", referral: "1.000000000000000001", total: "1000000000000000000000000000001" },
];

describe("exact scores on the wire", () => {
  it("writes score, referral_score and total as JSON numbers with every stored digit, and serves the same bytes from the cache", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { tok: "Token", gems: "Gems" }, primary: "tok" });
    await seedRuleVersion(api.db, campaign, {
      campaignId: campaign,
      version: 1,
      primaryCurrency: "tok",
      // The rules name their currencies too, but responses show the campaign's names.
      currencies: { tok: { name: "Rule token", decimals: 18 }, gems: { name: "Rule gems", decimals: 0 } },
      rules: [],
    });
    const key = (await seedApiKey(api.db, campaign)).key;
    const users: string[] = [];
    for (const row of ROWS) {
      const user = await seedUser(api.db, campaign);
      await seedScore(api.db, campaign, user, "tok", { score: row.score, referral: row.referral });
      users.push(user);
    }
    const expected = (i: number) => ({ score: ROWS[i]?.score, referral_score: ROWS[i]?.referral, total: ROWS[i]?.total });

    const board = await get(`${api.url}/leaderboard?campaign_id=${campaign}`);
    expect(board.status).toBe(200);
    expect(board.body.currency_names).toEqual({ tok: "Token", gems: "Gems" });
    // Ordered by total: the 31-digit row, then 9223372036854776.17..., then 0.37...
    const order = [2, 0, 1];
    expect(exact(board.text).entries.map((e: { user_id: string }) => e.user_id)).toEqual(order.map((i) => users[i]));
    exact(board.text).entries.forEach((e: { scores: Record<string, unknown> }, n: number) => {
      expect(e.scores.tok).toEqual(expected(order[n] as number));
      expect(e.scores.gems).toEqual({ score: "0", referral_score: "0", total: "0" });
    });
    // The literal text itself: plain notation, no exponent, no quotes.
    expect(board.text).toContain('"tok":{"score":0.370370367037037034,"referral_score":0,"total":0.370370367037037034}');
    expect(board.text).toContain('"total":9223372036854776.170370367037037034}');

    const around = await get(`${api.url}/leaderboard/around/${users[1]}?campaign_id=${campaign}&n=1`);
    expect(around.status).toBe(200);
    expect(exact(around.text).entries.map((e: { scores: { tok: unknown } }) => e.scores.tok)).toEqual([expected(0), expected(1)]);

    for (const [i, user] of users.entries()) {
      const mine = await get(`${api.url}/users/${user}/scores`, { "x-api-key": key });
      expect(mine.status).toBe(200);
      expect(exact(mine.text).scores.tok).toEqual(expected(i));
      expect(mine.body.currency_names).toEqual({ tok: "Token", gems: "Gems" });
      // The cached copy, from this process and from another one reading Redis, has the same bytes.
      expect((await get(`${api.url}/users/${user}/scores`, { "x-api-key": key })).text).toBe(mine.text);
    }
    const other = await api.another();
    expect((await get(`${other}/leaderboard?campaign_id=${campaign}`)).text).toBe(board.text);
    expect((await get(`${other}/leaderboard/around/${users[1]}?campaign_id=${campaign}&n=1`)).text).toBe(around.text);
    expect((await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).text).toBe(board.text);
  });
});

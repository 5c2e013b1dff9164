// Spec rules of GET /leaderboard a visitor would notice: it is public whatever credentials come along, and the
// display-name priority (clean user-set name, then X username, then anonymous name) with its avatar, on the board itself.
import { createTestCache, seedApiKey, seedCampaign, seedIdentity, seedScore, seedUser, uniqueName } from "@pointwise/testkit";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;

beforeAll(async () => {
  // A long cache window: every request below reads the same cached board, so differences come from credentials only.
  api = await startReadApi({ CACHE_TTL_MS: "60000" });
});
afterAll(async () => {
  await api?.close();
});

/** A generated avatar as docs/api/read.md defines it: `{GENERATED_AVATAR_URL}?seed=` and 24 hex digits. */
const GENERATED_AVATAR = /^https:\/\/gen\.test\/avatar\.svg\?seed=[0-9a-f]{24}$/;
/** An anonymous name in the documented shape (`Swift Otter 4821`). */
const ANONYMOUS_NAME = /^[A-Z][a-z]+ [A-Z][a-z]+ [0-9]{4}$/;

describe("GET /leaderboard is public (spec: Auth none)", () => {
  it("answers the same 200 body with no credentials, a portal-style bearer, a campaign key, and garbage credentials", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const user = await seedUser(api.db, campaign, { displayName: "Public Pat" });
    await seedScore(api.db, campaign, user, "xp", { score: "3" });
    const key = (await seedApiKey(api.db, campaign)).key;
    const url = `${api.url}/leaderboard?campaign_id=${campaign}`;
    const anonymous = await get(url);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.entries.map((e: { user_id: string; rank: number }) => [e.user_id, e.rank])).toEqual([[user, 1]]);
    const credentialed: Record<string, string>[] = [
      { authorization: "Bearer not.a.jwt" },
      { authorization: `Bearer ${key}` },
      { "x-api-key": key },
      { "x-api-key": "pw_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
      { authorization: "Basic dXNlcjpwYXNz", "x-api-key": "garbage" },
    ];
    for (const headers of credentialed) {
      const res = await get(url, headers);
      expect({ headers, status: res.status, text: res.text }).toEqual({ headers, status: 200, text: anonymous.text });
    }
  });
});

describe("display_name and avatar_url priority on the board", () => {
  it("shows a clean user-set name over the X username, the X username over a name with a bad word in any case, else the anonymous name", async () => {
    // "gmrug" is this campaign's own bad word; "admin" is on the shipped default list.
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" }, badWords: ["gmrug"] });
    const seeds = ["spec-seed-a-0123456789abcdef0123", "spec-seed-b-0123456789abcdef0123", "spec-seed-c-0123456789abcdef0123"];
    const plan = [
      // [user-set name, X username, expected display_name and avatar (null: the anonymous name and a generated avatar)]
      { name: "Moon Walker", x: "moon_x1", shown: "Moon Walker", avatar: "https://img.test/x/moon_x1" },
      { name: "The AdMiN Team", x: "moon_x2", shown: "moon_x2", avatar: "https://img.test/x/moon_x2" },
      { name: "GMRUG forever", x: null, shown: null, avatar: null },
    ];
    const ids: string[] = [];
    for (const [i, p] of plan.entries()) {
      const id = await seedUser(api.db, campaign, { displayName: p.name, secretSeed: seeds[i] as string });
      if (p.x !== null) await seedIdentity(api.db, campaign, id, "X_PROVIDER_ID", `14600000000000000${i}`, p.x);
      await seedScore(api.db, campaign, id, "xp", { score: String(30 - i) });
      ids.push(id);
    }
    const board = await get(`${api.url}/leaderboard?campaign_id=${campaign}`);
    expect(board.status).toBe(200);
    const entries = board.body.entries as { user_id: string; rank: number; display_name: string; avatar_url: string; identities: object }[];
    expect(entries.map((e) => [e.user_id, e.rank])).toEqual(ids.map((id, i) => [id, i + 1]));
    for (const i of [0, 1]) {
      const p = plan[i];
      expect(entries[i]).toMatchObject({ display_name: p?.shown, avatar_url: p?.avatar, identities: { x_username: p?.x } });
    }
    // The anonymous name: not the bad name, no X username, and the same on a board built again by another process.
    const anonymous = entries[2];
    expect(anonymous?.display_name).toMatch(ANONYMOUS_NAME);
    expect(anonymous?.display_name).not.toMatch(/gmrug/i);
    expect(anonymous?.identities).toEqual({});
    expect(anonymous?.avatar_url).toMatch(GENERATED_AVATAR);
    // A second process with a cache of its own builds the board from PostgreSQL again: the anonymous name is the same.
    const ownCache = await createTestCache(uniqueName("spec-read"));
    try {
      const rebuilt = await get(`${await api.another({ cache: ownCache })}/leaderboard?campaign_id=${campaign}`);
      expect(rebuilt.body.entries[2]).toMatchObject({ display_name: anonymous?.display_name, avatar_url: anonymous?.avatar_url });
    } finally {
      await ownCache.drop();
    }
    // Nothing of the secret seeds is shown.
    for (const seed of seeds) expect(board.text).not.toContain(seed);
  });
});

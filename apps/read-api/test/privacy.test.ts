// No read-api response shows an e-mail, a wallet, a provider id or a secret seed; display-name fallbacks apply.
import { leaderboardResponseSchema, userScoresResponseSchema } from "@pointwise/schemas";
import { seedApiKey, seedCampaign, seedIdentity, seedScore, seedUser } from "@pointwise/testkit";
import { anonymousName } from "../src/privacy";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;

beforeAll(async () => {
  api = await startReadApi();
});
afterAll(async () => {
  await api?.close();
});

/** Identities of every kind the service accepts; none may appear in a response. */
const IDENTITIES: [string, string][] = [
  ["EMAIL", "alice.smith+loyalty@example.com"],
  ["EVM_ADDRESS", "0x52908400098527886e0f7030069857d2e4169ee7"],
  ["SOLANA_ADDRESS", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"],
  ["BTC_ADDRESS", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
  ["BTC_ADDRESS", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
  ["DISCORD_PROVIDER_ID", "80351110224678912"],
  ["X_PROVIDER_ID", "1460283925139238912"],
  ["GITHUB_PROVIDER_ID", "58237194"],
];

/** True when `secret` appears in `json` (short numeric ids only as a whole token, so digits inside other values do not count). */
function leaks(json: string, secret: string): boolean {
  const text = json.toLowerCase();
  const s = secret.toLowerCase();
  if (!/^\d+$/.test(s) || s.length >= 13) return text.includes(s);
  return new RegExp(`(?<![0-9a-z])${s}(?![0-9a-z])`).test(text);
}

describe("privacy of every read response", () => {
  it("never shows an e-mail, a wallet, a provider id or a secret seed, and applies the display-name fallbacks", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" }, badWords: ["rugpull"] });
    const key = (await seedApiKey(api.db, campaign)).key;
    const secrets: string[] = [];
    const expectedName: Record<string, string> = {};
    const plan: { name: string | null; x: string | null; expected: (seed: string) => string }[] = [
      { name: "Clean Name", x: null, expected: () => "Clean Name" },
      { name: "TotallyNotAnADMIN", x: "xhandle_1", expected: () => "xhandle_1" }, // default list
      { name: "RugPull King", x: null, expected: (seed) => anonymousName(seed) }, // the campaign's own list
      { name: "alice.smith+loyalty@example.com", x: null, expected: (seed) => anonymousName(seed) }, // name is an e-mail
      { name: "gm 0x52908400098527886E0F7030069857D2E4169EE7", x: "xhandle_2", expected: () => "xhandle_2" }, // name holds a wallet
      { name: null, x: null, expected: (seed) => anonymousName(seed) },
      { name: "Shy", x: null, expected: () => "Shy" },
      { name: null, x: "xhandle_3", expected: () => "xhandle_3" },
    ];
    for (const [i, p] of plan.entries()) {
      const seed = `seed${i}${"0123456789abcdef".repeat(2)}`;
      const id = await seedUser(api.db, campaign, { displayName: p.name, secretSeed: seed });
      secrets.push(seed);
      expectedName[id] = p.expected(seed);
      // Every user gets every kind of identity, each made unique per user.
      for (const [type, account] of IDENTITIES) {
        const acc =
          type === "EMAIL"
            ? account.replace("@", `${i}@`)
            : type.endsWith("PROVIDER_ID")
              ? `${account}${i}`
              : `${account.slice(0, -2)}${String(i).padStart(2, "0")}`;
        if (type === "X_PROVIDER_ID") await seedIdentity(api.db, campaign, id, type, acc, p.x);
        else await seedIdentity(api.db, campaign, id, type, acc);
        secrets.push(acc);
      }
      await seedScore(api.db, campaign, id, "xp", { score: String(100 - i) });
    }

    const bodies: string[] = [];
    const board = await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=1000`);
    bodies.push(board.text);
    const parsed = leaderboardResponseSchema.parse(board.body);
    expect(parsed.entries).toHaveLength(plan.length);
    for (const e of parsed.entries) {
      expect(e.display_name).toBe(expectedName[e.user_id]);
      const around = await get(`${api.url}/leaderboard/around/${e.user_id}?campaign_id=${campaign}&n=3`);
      bodies.push(around.text);
      leaderboardResponseSchema.parse(around.body);
      const scores = await get(`${api.url}/users/${e.user_id}/scores`, { "x-api-key": key });
      bodies.push(scores.text);
      expect(userScoresResponseSchema.parse(scores.body).display_name).toBe(e.display_name);
    }
    for (const body of bodies) {
      for (const secret of secrets) expect({ secret, leaked: leaks(body, secret) }).toEqual({ secret, leaked: false });
      // No key beyond the documented ones can carry anything out.
      expect(body).not.toMatch(/secret|seed"|account|email|wallet|provider/i);
    }
  });

  it("hides names that spell out an address or e-mail in another way, or a bad word with a dotted capital I, and keeps ordinary names", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const own = "0xab5801a7d398351b8be11c439e05c5b3259aec9b";
    // shown: the name kept as written, or null for a refused one, which the board replaces by an anonymous name.
    const plan: { name: string; identity?: [string, string]; shown: string | null }[] = [
      // The audit's cases: the user's own address without 0x, someone else's, a space after 0x, an e-mail with spaces.
      { name: own.slice(2), identity: ["EVM_ADDRESS", own], shown: null },
      { name: "D8DA6BF26964AF9D7EED9E03E53415D37AA96045", shown: null },
      { name: `0x ${own.slice(2)}`, shown: null },
      { name: "0xab58 01a7 d398 351b 8be1 1c43 9e05 c5b3 259a ec9b", shown: null },
      { name: "eve.audit @ example.com", shown: null },
      { name: "ADMİN", shown: null },
      { name: "Team 42", shown: "Team 42" },
      { name: "0xSam", shown: "0xSam" },
    ];
    const ids: string[] = [];
    for (const [i, p] of plan.entries()) {
      const id = await seedUser(api.db, campaign, { displayName: p.name, secretSeed: `names${i}${"0123456789abcdef".repeat(2)}` });
      if (p.identity) await seedIdentity(api.db, campaign, id, p.identity[0], p.identity[1]);
      await seedScore(api.db, campaign, id, "xp", { score: String(100 - i) });
      ids.push(id);
    }
    const board = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body);
    const shown = new Map(board.entries.map((e) => [e.user_id, e.display_name]));
    for (const [i, p] of plan.entries()) {
      const name = shown.get(ids[i] as string);
      // A refused name gives way to an anonymous name in the documented shape (`Swift Otter 4821`).
      if (p.shown === null) expect({ set: p.name, name }).toEqual({ set: p.name, name: expect.stringMatching(/^[A-Z][a-z]+ [A-Z][a-z]+ [0-9]{4}$/) });
      else expect({ set: p.name, name }).toEqual({ set: p.name, name: p.shown });
    }
    expect(
      board.entries
        .map((e) => e.display_name)
        .join(" ")
        .toLowerCase(),
    ).not.toContain(own.slice(2, 12));
  });
});

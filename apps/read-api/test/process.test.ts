// The built read-api bundle as a process: serves every endpoint and exits 0 on SIGTERM.
import { execFileSync } from "node:child_process";
import { leaderboardResponseSchema, userScoresResponseSchema } from "@pointwise/schemas";
import {
  type AppProcess,
  createTestCache,
  createTestDatabase,
  repoRoot,
  seedCampaign,
  seedIdentity,
  seedScore,
  seedUser,
  spawnApp,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";
import { get } from "./support";

const SECRET = "process-test-secret-process-test-secret-01";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let app: AppProcess | undefined;
const namespace = uniqueName("readproc");

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await app?.stop("SIGKILL");
  await db?.drop();
  // The process wrote its responses under its namespace; remove them from the shared Redis.
  await (await createTestCache(namespace)).drop();
});

describe("the built read-api process", () => {
  it("starts from its bundle with the shipped bad-word file, serves every endpoint, and exits 0 on SIGTERM", async () => {
    const campaign = await seedCampaign(db, { currencies: { xp: "Experience" } });
    const user = await seedUser(db, campaign, { displayName: "Heil Bot" });
    await seedIdentity(db, campaign, user, "EVM_ADDRESS", "0x52908400098527886e0f7030069857d2e4169ee7");
    await seedScore(db, campaign, user, "xp", { score: "41" });
    app = await spawnApp("read-api", {
      ...testServiceEnv(db.schema, { namespace }),
      CACHE_TTL_MS: "1000",
      PORTAL_JWT_SECRET: SECRET,
    });
    const board = await get(`${app.url}/leaderboard?campaign_id=${campaign}`);
    expect(board.status).toBe(200);
    const entry = leaderboardResponseSchema.parse(board.body).entries[0];
    // "heil" is on the shipped list, so the name falls back to the anonymous one.
    expect(entry?.display_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{4}$/);
    expect(entry?.scores).toEqual({ xp: { score: 41, referral_score: 0, total: 41 } });
    expect(board.text).not.toContain("52908400098527886e0f7030069857d2e4169ee7");
    // The demo's token minter gives a token this process accepts for that user only.
    const mint = (id: string) =>
      execFileSync(process.execPath, ["--import", "tsx", "scripts/demo-token.ts", id, "--ttl", "60"], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? "", PORTAL_JWT_SECRET: SECRET },
        encoding: "utf8",
      }).trim();
    const token = mint(user);
    expect((await get(`${app.url}/users/${user}/scores`, { authorization: `Bearer ${mint("5f0c7a3e-1b2d-4c5e-8f9a-0b1c2d3e4f5a")}` })).status).toBe(403);
    const scores = await get(`${app.url}/users/${user}/scores`, { authorization: `Bearer ${token}` });
    expect(userScoresResponseSchema.parse(scores.body)).toMatchObject({ user_id: user, rank: 1, display_name: entry?.display_name });
    expect((await get(`${app.url}/leaderboard/around/${user}?campaign_id=${campaign}`)).body.entries).toEqual(board.body.entries);
    expect(await app.stop("SIGTERM")).toBe(0);
    expect(app.output()).toContain('"msg":"read-api listening"');
    expect(app.output()).not.toContain(token);
  });
});

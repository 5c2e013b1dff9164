// The active rule version on PostgreSQL: which version counts as active, read alike by the dry run and the rest.
import { activateRuleVersion } from "@pointwise/db";
import { createTestDatabase } from "@pointwise/testkit";
import { activeRuleVersionIn, activeVersionIn } from "./active-version";
import { readDryRunInputs } from "./campaign-log";

const CAMPAIGN = "ab12-cd34";
let db: Awaited<ReturnType<typeof createTestDatabase>>;

/** Stores rule version `version` of the campaign with `status` and a document naming it. */
async function storeVersion(version: number, status: string): Promise<void> {
  await db.query("INSERT INTO rule_version(campaign_id, version, document, status) VALUES ($1, $2, $3, $4)", [
    CAMPAIGN,
    version,
    JSON.stringify({ name: `v${version}` }),
    status,
  ]);
}

beforeAll(async () => {
  db = await createTestDatabase();
  const { rows } = await db.query<{ id: string }>("INSERT INTO project(name) VALUES ('p') RETURNING id");
  await db.query(`INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ($1, $2, 'c', '{"xp":"XP"}', 'xp')`, [CAMPAIGN, rows[0]?.id]);
});
afterAll(async () => {
  await db.drop();
});

describe("the active rule version", () => {
  it("is none while the campaign has only drafts and superseded versions, for the dry run too", async () => {
    await storeVersion(1, "superseded");
    await storeVersion(2, "draft");
    expect(await activeVersionIn(db, CAMPAIGN)).toBeNull();
    expect((await readDryRunInputs(db, CAMPAIGN, 10)).active).toBeNull();
  });

  it("is the one marked active, with its stored document, and the dry run reads the same", async () => {
    await storeVersion(3, "active");
    expect(await activeRuleVersionIn(db, CAMPAIGN)).toEqual({ version: 3, document: { name: "v3" } });
    expect(await activeVersionIn(db, CAMPAIGN)).toBe(3);
    expect((await readDryRunInputs(db, CAMPAIGN, 10)).active).toEqual({ version: 3, document: { name: "v3" } });
  });

  it("is the version a switch activates, and never two: a second version marked active is refused", async () => {
    await expect(storeVersion(4, "active")).rejects.toMatchObject({ code: "unique-violation", constraint: "rule_version_one_active_key" });
    expect(await activeVersionIn(db, CAMPAIGN)).toBe(3);
    await storeVersion(5, "draft");
    await db.transaction((tx) => activateRuleVersion(tx, CAMPAIGN, 5));
    expect(await activeRuleVersionIn(db, CAMPAIGN)).toEqual({ version: 5, document: { name: "v5" } });
    expect((await readDryRunInputs(db, CAMPAIGN, 10)).active).toEqual({ version: 5, document: { name: "v5" } });
  });
});

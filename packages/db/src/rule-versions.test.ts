// One active rule version per campaign on PostgreSQL: reading it, the switch, the index that refuses a second, and two switches racing.
import { backendPid, waitUntilBlockedBy } from "@pointwise/testkit";
import { createDatabase, type Database } from "./client";
import { dropSchema, migrate } from "./migrate";
import { ACTIVE_RULE_VERSION_SQL, activateRuleVersion, activeRuleVersion } from "./rule-versions";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_rule_versions_${process.pid}_${Date.now().toString(36)}`;
let db: Database;
let project: string;
let campaigns = 0;

beforeAll(async () => {
  db = createDatabase({ url, schema, max: 4 });
  await migrate(db);
  const { rows } = await db.query<{ id: string }>("INSERT INTO project(name) VALUES ('p') RETURNING id");
  project = rows[0]?.id as string;
});
afterAll(async () => {
  await dropSchema(db);
  await db.close();
});

/** A new campaign whose versions 1, 2, ... have the given statuses; returns its id. */
async function campaignWith(...statuses: string[]): Promise<string> {
  const id = `rv${String(++campaigns).padStart(2, "0")}-0000`;
  await db.query(`INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ($1, $2, 'c', '{"xp":"XP"}', 'xp')`, [id, project]);
  for (const [i, status] of statuses.entries()) {
    await db.query("INSERT INTO rule_version(campaign_id, version, document, status) VALUES ($1, $2, '{}', $3)", [id, i + 1, status]);
  }
  return id;
}

async function statuses(campaignId: string): Promise<Array<{ version: number; status: string; stamped: boolean }>> {
  const { rows } = await db.query<{ version: number; status: string; stamped: boolean }>(
    "SELECT version, status, activated_at IS NOT NULL AS stamped FROM rule_version WHERE campaign_id = $1 ORDER BY version",
    [campaignId],
  );
  return rows;
}

/** Stores rule version `version` of the campaign with `status` and a document naming it; returns the row's id. */
async function storeVersion(campaignId: string, version: number, status: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>("INSERT INTO rule_version(campaign_id, version, document, status) VALUES ($1, $2, $3, $4) RETURNING id", [
    campaignId,
    version,
    JSON.stringify({ name: `v${version}` }),
    status,
  ]);
  return rows[0]?.id as string;
}

/** The active version's number as the SQL fragment reads it inside a statement. */
async function activeVersionBySql(campaignId: string): Promise<number | null> {
  const { rows } = await db.query<{ version: number | null }>(`SELECT ${ACTIVE_RULE_VERSION_SQL} AS version`, [campaignId]);
  return rows[0]?.version ?? null;
}

describe("the active rule version", () => {
  let c: string;
  beforeAll(async () => {
    c = await campaignWith();
  });

  it("is none while the campaign has only drafts and superseded versions", async () => {
    await storeVersion(c, 1, "superseded");
    await storeVersion(c, 2, "draft");
    expect(await activeRuleVersion(db, c)).toBeNull();
    expect(await activeVersionBySql(c)).toBeNull();
  });

  it("is the one marked active, with its row id and stored document", async () => {
    const id = await storeVersion(c, 3, "active");
    expect(await activeRuleVersion(db, c)).toEqual({ id, version: 3, document: { name: "v3" } });
    expect(await activeVersionBySql(c)).toBe(3);
  });

  it("is the version a switch activates, and never two: a second version marked active is refused", async () => {
    await expect(storeVersion(c, 4, "active")).rejects.toMatchObject({ code: "unique-violation", constraint: "rule_version_one_active_key" });
    expect((await activeRuleVersion(db, c))?.version).toBe(3);
    const id = await storeVersion(c, 5, "draft");
    await db.transaction((tx) => activateRuleVersion(tx, c, 5));
    expect(await activeRuleVersion(db, c)).toEqual({ id, version: 5, document: { name: "v5" } });
    expect(await activeVersionBySql(c)).toBe(5);
  });
});

describe("activating a rule version", () => {
  it("retires the active version as superseded and makes the new one active with its activation time", async () => {
    const c = await campaignWith("superseded", "active", "draft");
    await db.transaction((tx) => activateRuleVersion(tx, c, 3));
    expect(await statuses(c)).toEqual([
      { version: 1, status: "superseded", stamped: false },
      { version: 2, status: "superseded", stamped: false },
      { version: 3, status: "active", stamped: true },
    ]);
  });

  it("is refused by the database for a second active version of a campaign, inserted or updated", async () => {
    const c = await campaignWith("active", "draft");
    const refused = { code: "unique-violation", constraint: "rule_version_one_active_key" };
    await expect(db.query("INSERT INTO rule_version(campaign_id, version, document, status) VALUES ($1, 3, '{}', 'active')", [c])).rejects.toMatchObject(
      refused,
    );
    await expect(db.query("UPDATE rule_version SET status = 'active' WHERE campaign_id = $1 AND version = 2", [c])).rejects.toMatchObject(refused);
    // Another campaign's active version is no conflict.
    const other = await campaignWith("active");
    expect(await statuses(other)).toEqual([{ version: 1, status: "active", stamped: false }]);
    expect((await statuses(c)).map((v) => v.status)).toEqual(["active", "draft"]);
  });

  it("lets one of two switches racing on a campaign win and refuses the other with concurrent-activation", async () => {
    const c = await campaignWith("active", "draft", "draft");
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => {
      commitFirst = resolve;
    });
    let firstPid!: number;
    let firstSwitched!: () => void;
    const firstHasSwitched = new Promise<void>((resolve) => {
      firstSwitched = resolve;
    });
    const first = db.transaction(async (tx) => {
      firstPid = await backendPid(tx);
      await activateRuleVersion(tx, c, 2);
      firstSwitched();
      await firstMayCommit;
    });
    await firstHasSwitched;
    // The second switch does not see version 2 active yet: it waits on version 1, which the first has retired.
    const second = db.transaction(async (tx) => {
      const pid = await backendPid(tx);
      const waiting = activateRuleVersion(tx, c, 3);
      try {
        await waitUntilBlockedBy(db, firstPid, "the second switch to wait for the first", { waiter: pid });
      } finally {
        commitFirst();
      }
      await waiting;
    });
    const [won, lost] = await Promise.allSettled([first, second]);
    expect(won.status).toBe("fulfilled");
    expect(lost).toMatchObject({
      status: "rejected",
      reason: {
        code: "concurrent-activation",
        message: `rule version 3 of campaign ${c} cannot become active: another version of the campaign became active at the same time, and a campaign has at most one active rule version`,
      },
    });
    expect(await statuses(c)).toEqual([
      { version: 1, status: "superseded", stamped: false },
      { version: 2, status: "active", stamped: true },
      { version: 3, status: "draft", stamped: false },
    ]);
  });
});

// The migration runner on PostgreSQL: once only, concurrent runners, edited or failing migrations.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDatabase, type Database } from "./client";
import { dropSchema, MIGRATIONS_DIR, migrate, migrateSchema, readMigrations } from "./migrate";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_migrate_${process.pid}_${Date.now().toString(36)}`;
let db: Database;
// Copies of the migrations folder that tests edit; removed when the file's tests end.
const copies: string[] = [];

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pw-mig-"));
  copies.push(dir);
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

/**
 * Runs `body` on schema `other`, migrated as a database was before migration `name`: it and every later one left out.
 * `later` lists those, and `applyLater` applies them as a deployment would. The schema is dropped afterwards.
 */
async function beforeMigration(
  name: string,
  other: string,
  body: (q: Database, later: string[], applyLater: () => Promise<{ applied: string[] }>) => Promise<void>,
): Promise<void> {
  const before = await copyOfMigrations();
  const later = (await readMigrations()).map((m) => m.name).filter((n) => n >= name);
  for (const n of later) await rm(path.join(before, n), { recursive: true });
  try {
    await migrate(db, other, before);
    const q = createDatabase({ url, schema: other, max: 1 });
    try {
      await body(q, later, () => migrate(db, other));
    } finally {
      await q.close();
    }
  } finally {
    await dropSchema(db, other);
  }
}

beforeAll(() => {
  db = createDatabase({ url, schema, max: 4 });
});
afterAll(async () => {
  await dropSchema(db, schema);
  await dropSchema(db, `${schema}_b`);
  await db.close();
  for (const dir of copies) await rm(dir, { recursive: true, force: true });
});

describe("migrate", () => {
  it("applies every migration once and is a no-op the second time", async () => {
    const all = (await readMigrations()).map((m) => m.name);
    const first = await migrate(db, schema);
    expect(first.applied).toEqual(all);
    const second = await migrate(db, schema);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(all);
  });

  it("lets concurrent runners wait for each other instead of racing", async () => {
    const other = `${schema}_b`;
    const results = await Promise.all([migrate(db, other), migrate(db, other), migrate(db, other)]);
    const appliedCounts = results.map((r) => r.applied.length).sort();
    const total = (await readMigrations()).length;
    expect(appliedCounts).toEqual([0, 0, total]);
  });

  it("migrates a schema from connection options alone, as the offline runner does", async () => {
    const other = `${schema}_c`;
    try {
      const result = await migrateSchema({ url, schema: other });
      expect(result.applied).toEqual((await readMigrations()).map((m) => m.name));
    } finally {
      await dropSchema(db, other);
    }
  });

  it("refuses to run when an applied migration was edited", async () => {
    const dir = await copyOfMigrations();
    const [firstName] = (await readMigrations(dir)).map((m) => m.name);
    await writeFile(path.join(dir, String(firstName), "migration.sql"), "SELECT 1;");
    await expect(migrate(db, schema, dir)).rejects.toMatchObject({ code: "migration-changed" });
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    const dir = await copyOfMigrations();
    await mkdir(path.join(dir, "99999999999999_broken"));
    await writeFile(path.join(dir, "99999999999999_broken", "migration.sql"), 'CREATE TABLE "half_done"(id int); SELECT no_such_function();');
    await expect(migrate(db, schema, dir)).rejects.toMatchObject({ code: "migration-failed" });
    const tables = await db.query("SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'half_done'", [schema]);
    expect(tables.rowCount).toBe(0);
  });

  it("keeps the newest of a campaign's active rule versions active, supersedes the older ones, then refuses a second", async () => {
    await beforeMigration("20261202000100_one_active_rule_version", `${schema}_d`, async (q, later, applyLater) => {
      const { rows } = await q.query<{ id: string }>("INSERT INTO project(name) VALUES ('p') RETURNING id");
      for (const c of ["twice-0001", "once-0002"]) {
        await q.query(`INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ($1, $2, 'c', '{"xp":"XP"}', 'xp')`, [c, rows[0]?.id]);
      }
      // Stored out of version order, so "newest" cannot mean "inserted last".
      const versions: Array<[string, number, string]> = [
        ["twice-0001", 4, "active"],
        ["twice-0001", 1, "active"],
        ["twice-0001", 2, "superseded"],
        ["twice-0001", 3, "active"],
        ["twice-0001", 5, "draft"],
        ["once-0002", 1, "superseded"],
        ["once-0002", 2, "active"],
      ];
      for (const [c, version, status] of versions) {
        await q.query("INSERT INTO rule_version(campaign_id, version, document, status) VALUES ($1, $2, '{}', $3)", [c, version, status]);
      }

      expect((await applyLater()).applied).toEqual(later);

      const { rows: after } = await q.query("SELECT campaign_id, version, status FROM rule_version ORDER BY campaign_id DESC, version");
      expect(after).toEqual([
        { campaign_id: "twice-0001", version: 1, status: "superseded" },
        { campaign_id: "twice-0001", version: 2, status: "superseded" },
        { campaign_id: "twice-0001", version: 3, status: "superseded" },
        { campaign_id: "twice-0001", version: 4, status: "active" },
        { campaign_id: "twice-0001", version: 5, status: "draft" },
        { campaign_id: "once-0002", version: 1, status: "superseded" },
        { campaign_id: "once-0002", version: 2, status: "active" },
      ]);
      await expect(q.query("UPDATE rule_version SET status = 'active' WHERE campaign_id = 'twice-0001' AND version = 5")).rejects.toMatchObject({
        code: "unique-violation",
        constraint: "rule_version_one_active_key",
      });
    });
  });

  it("keys the sign-in attempts counted so far by their e-mail, so they keep counting where admin-api now looks", async () => {
    await beforeMigration("20261203000000_sign_in_attempt_keys", `${schema}_e`, async (q, later, applyLater) => {
      await q.query("INSERT INTO sign_in_attempt(email, attempts, window_start) VALUES ('a@pointwise.test', 4, '2026-12-01T10:00:00Z')");
      expect((await applyLater()).applied).toEqual(later);
      const { rows } = await q.query<{ key: string; attempts: number; window_start: Date }>("SELECT key, attempts, window_start FROM sign_in_attempt");
      expect(rows).toEqual([{ key: "email:a@pointwise.test", attempts: 4, window_start: new Date("2026-12-01T10:00:00Z") }]);
    });
  });

  it("keeps the event log append-only: UPDATE, DELETE and TRUNCATE fail", async () => {
    await db.query(`INSERT INTO project(id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'p')`);
    await db.query(
      `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, received_at, occurred_at)
       VALUES ('00000000-0000-4000-8000-0000000000e1', 'ab12-cd34', '00000000-0000-4000-8000-0000000000a1',
               '00000000-0000-4000-8000-0000000000b1', 'EMAIL', 'a@b.co', 1.5, now(), now())`,
    );
    await expect(db.query("UPDATE event_log SET amount = 0")).rejects.toThrow(/append-only: UPDATE/);
    await expect(db.query("DELETE FROM event_log")).rejects.toThrow(/append-only: DELETE/);
    await expect(db.query("TRUNCATE event_log")).rejects.toThrow(/append-only: TRUNCATE/);
    const { rows } = await db.query("SELECT amount FROM event_log");
    expect(rows).toEqual([{ amount: "1.500000000000000000" }]);
  });

  it("lets Prisma read and write through the same pool and schema", async () => {
    const project = await db.prisma.project.create({ data: { name: "Prisma works" } });
    const found = await db.prisma.project.findUnique({ where: { id: project.id } });
    expect(found?.name).toBe("Prisma works");
    const { rows } = await db.query("SELECT name FROM project WHERE id = $1", [project.id]);
    expect(rows[0]?.name).toBe("Prisma works");
  });
});

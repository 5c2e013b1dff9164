// The board indexes on PostgreSQL: a rank count over on-board rows is answered from the index alone.
import { createDatabase, type Database } from "./client";
import { ON_BOARD_SQL, type RankingColumn } from "./leaderboard";
import { dropSchema, migrate } from "./migrate";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_leaderboard_${process.pid}_${Date.now().toString(36)}`;
const CAMPAIGN = "ab12-cd34";
let db: Database;

/** The index each ranking column's board and rank counts are read through. */
const BOARD_INDEX: Record<RankingColumn, string> = {
  total: "score_campaign_id_currency_total_reached_at_idx",
  balance: "score_balance_idx",
};

/** One node of an EXPLAIN (FORMAT JSON) plan, with the fields these tests read. */
interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Filter?: string;
  "Actual Rows"?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan tree, depth first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/**
 * Plans and runs a rank count the way the read API writes one (the board's campaign and currency, the
 * on-board condition, then the ranking column against a value), with the scans the index competes with
 * switched off: the test asks whether the index can answer the count alone, not what the planner's
 * costs prefer on a table this small.
 */
async function rankCountPlan(col: RankingColumn, op: ">" | "=", value: string): Promise<PlanNode[]> {
  return db.transaction(async (tx) => {
    await tx.query("SET LOCAL enable_seqscan = off");
    await tx.query("SET LOCAL enable_bitmapscan = off");
    const { rows } = await tx.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON)
       SELECT count(*) FROM score WHERE campaign_id = $1 AND currency = $2 AND ${ON_BOARD_SQL} AND ${col} ${op} $3`,
      [CAMPAIGN, "xp", value],
    );
    const root = rows[0]?.["QUERY PLAN"][0]?.Plan;
    if (!root) throw new Error("EXPLAIN returned no plan");
    return nodesOf(root);
  });
}

beforeAll(async () => {
  db = createDatabase({ url, schema, max: 4 });
  await migrate(db, schema);
  // 3,000 on-board rows, ten at each total 0..299, nothing spent (balance = total);
  await db.query(
    `INSERT INTO score(campaign_id, user_id, currency, score, total, lifetime, reached_at)
     SELECT $1, gen_random_uuid(), 'xp', i / 10, i / 10, i / 10, now() - i * interval '1 second' FROM generate_series(0, 2999) i`,
    [CAMPAIGN],
  );
  // 5 rows with nothing left but something earned once (lifetime 4): on the board at 0 (balance 0);
  await db.query(
    `INSERT INTO score(campaign_id, user_id, currency, total, lifetime, spent) SELECT $1, gen_random_uuid(), 'xp', 0, 4, 2 FROM generate_series(1, 5)`,
    [CAMPAIGN],
  );
  // 200 rows of users who only spent: on no board.
  await db.query(
    `INSERT INTO score(campaign_id, user_id, currency, total, lifetime, spent) SELECT $1, gen_random_uuid(), 'xp', 0, 0, 5 FROM generate_series(1, 200)`,
    [CAMPAIGN],
  );
  await db.query("VACUUM ANALYZE score");
});
afterAll(async () => {
  await dropSchema(db, schema);
  await db.close();
});

describe.each(["total", "balance"] as const)("a rank count by %s", (col) => {
  it("counts the rows above a value with an index-only scan of the board index and no filter", async () => {
    const nodes = await rankCountPlan(col, ">", "150");
    const scans = nodes.filter((n) => n["Node Type"].includes("Scan"));
    expect(scans.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Only Scan", BOARD_INDEX[col]]]);
    // The on-board condition is the index's own predicate, so no row is read only to be thrown away.
    expect(scans[0]?.Filter).toBeUndefined();
    // Totals 151..299 are above 150: 149 values, ten rows each.
    expect(scans[0]?.["Actual Rows"]).toBe(149 * 10);
  });

  it("counts the rows at a value from the index alone, leaving out users who only spent", async () => {
    const nodes = await rankCountPlan(col, "=", "0");
    const scans = nodes.filter((n) => n["Node Type"].includes("Scan"));
    expect(scans.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Only Scan", BOARD_INDEX[col]]]);
    expect(scans[0]?.Filter).toBeUndefined();
    // At 0: the ten rows of total 0 and the five with lifetime left, not the 200 spend-only rows.
    expect(scans[0]?.["Actual Rows"]).toBe(10 + 5);
  });
});

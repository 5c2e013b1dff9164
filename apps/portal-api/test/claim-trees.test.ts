// The per-process cache of published epochs' Merkle trees, against the real database: each tree is read once, the last 8 used are kept.
import { buildClaimTree } from "@pointwise/claims";
import { createClaimTrees } from "../src/rewards/claim-trees";
import { type Harness, startPortal } from "./harness";

const ACCOUNT = "0x00000000000000000000000000000000000000a1";
let h: Harness;

beforeAll(async () => {
  h = await startPortal();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** A published epoch whose one leaf pays `amount` to ACCOUNT; its id. */
async function publishedEpoch(amount: bigint): Promise<string> {
  const tree = buildClaimTree([{ account: ACCOUNT, amount }]);
  const { rows } = await h.deps.db.query<{ id: string }>(
    "INSERT INTO claim_epoch(campaign_id, status, root, tree) VALUES ($1, 'published', $2, $3::jsonb) RETURNING id::text AS id",
    [h.campaignId, tree.root, JSON.stringify(tree.toJSON())],
  );
  return (rows[0] as { id: string }).id;
}

/** Makes the stored tree of an epoch unreadable: a tree read from the database again fails with invalid-claim-tree. */
const spoil = (id: string) => h.deps.db.query("UPDATE claim_epoch SET tree = '{}'::jsonb WHERE id = $1", [id]);

describe("the claim trees of published epochs", () => {
  it("reads each tree once, keeps the 8 most recently used, and reads a dropped or failed one again", async () => {
    const trees = createClaimTrees(h.deps.db);
    const ids: string[] = [];
    for (let i = 1n; i <= 9n; i++) ids.push(await publishedEpoch(i));
    const [first, second, , , , , , , ninth] = ids as [string, string, string, string, string, string, string, string, string];
    const amountOf = async (id: string) => (await trees.get(id)).proof(ACCOUNT)?.amount;

    for (const [i, id] of ids.slice(0, 8).entries()) expect(await amountOf(id)).toBe(BigInt(i + 1));
    await spoil(first);
    await spoil(second);
    // Kept: not read again.
    expect(await amountOf(first)).toBe(1n);
    // The ninth drops the least recently used, the second (the first was just used again).
    expect(await amountOf(ninth)).toBe(9n);
    expect(await amountOf(first)).toBe(1n);
    await expect(trees.get(second)).rejects.toMatchObject({ code: "invalid-claim-tree" });
    // A failed read is not kept: once the tree is readable again, it is read.
    const tree = buildClaimTree([{ account: ACCOUNT, amount: 2n }]);
    await h.deps.db.query("UPDATE claim_epoch SET tree = $2::jsonb WHERE id = $1", [second, JSON.stringify(tree.toJSON())]);
    expect(await amountOf(second)).toBe(2n);
  });
});

describe("a failed read of a claim tree", () => {
  it("does not drop a newer read of the same epoch that took its place", async () => {
    const id = await publishedEpoch(5n);
    const others: string[] = [];
    for (let i = 0; i < 8; i++) others.push(await publishedEpoch(1n));
    // The first read of the epoch is held back until released, so it fails only after a newer read is kept.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holdNext = true;
    const db = {
      query: async (sql: string, params: unknown[]) => {
        const hold = holdNext && params[0] === id;
        if (hold) holdNext = false;
        const answer = await h.deps.db.query(sql, params);
        if (hold) await held;
        return answer;
      },
    } as unknown as Parameters<typeof createClaimTrees>[0];
    const trees = createClaimTrees(db);
    await spoil(id);
    const failing = trees.get(id);
    // Eight other epochs push it out; it is read again, now readable, and kept.
    for (const other of others) await trees.get(other);
    const tree = buildClaimTree([{ account: ACCOUNT, amount: 5n }]);
    await h.deps.db.query("UPDATE claim_epoch SET tree = $2::jsonb WHERE id = $1", [id, JSON.stringify(tree.toJSON())]);
    expect((await trees.get(id)).proof(ACCOUNT)?.amount).toBe(5n);
    release();
    await expect(failing).rejects.toMatchObject({ code: "invalid-claim-tree" });
    // The kept read answers; the stored tree is not read again.
    await spoil(id);
    expect((await trees.get(id)).proof(ACCOUNT)?.amount).toBe(5n);
  });
});

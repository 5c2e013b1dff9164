// Referral links on PostgreSQL: a link is made with its time, and never one that closes a cycle, however long the chain.
import { createTestDatabase, seedCampaign, seedUser, uniqueName } from "@pointwise/testkit";
import { linkReferrer } from "./referrals";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let campaign: string;
beforeAll(async () => {
  db = await createTestDatabase(uniqueName("referrals"));
  campaign = await seedCampaign(db);
});
afterAll(() => db.drop());

const linkOf = async (userId: string) =>
  (await db.query<{ referrer_id: string | null; referred_at: Date | null }>("SELECT referrer_id, referred_at FROM app_user WHERE id = $1", [userId])).rows[0];

/** A chain of `length` users, each referred by the one before: [top, ..., bottom]. */
async function chain(length: number): Promise<string[]> {
  const users: string[] = [];
  for (let i = 0; i < length; i++) users.push(await seedUser(db, campaign, { referrerId: users[i - 1] ?? null }));
  return users;
}

describe("linkReferrer", () => {
  it("makes the referrer the user's and stamps when, for a referrer outside the user's own referrals", async () => {
    const [top, , bottom] = await chain(3);
    const newcomer = await seedUser(db, campaign);
    const before = Date.now();
    expect(await linkReferrer(db, newcomer, bottom as string)).toBe(true);
    const link = await linkOf(newcomer);
    expect(link?.referrer_id).toBe(bottom);
    expect(link?.referred_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // A user with referrals of their own may still be referred by someone outside them.
    const outsider = await seedUser(db, campaign);
    expect(await linkReferrer(db, top as string, outsider)).toBe(true);
    expect((await linkOf(top as string))?.referrer_id).toBe(outsider);
  });

  it("refuses the user as their own referrer, and changes nothing", async () => {
    const user = await seedUser(db, campaign);
    expect(await linkReferrer(db, user, user)).toBe(false);
    expect(await linkOf(user)).toEqual({ referrer_id: null, referred_at: null });
  });

  it.each([
    ["the user's direct referral", 1],
    ["a referral two steps down", 2],
    ["a referral 50 steps down", 50],
  ])("refuses %s as the user's referrer, and changes nothing", async (_name, depth) => {
    const users = await chain(depth + 1);
    const top = users[0] as string;
    expect(await linkReferrer(db, top, users[depth] as string)).toBe(false);
    expect(await linkOf(top)).toEqual({ referrer_id: null, referred_at: null });
  });
});

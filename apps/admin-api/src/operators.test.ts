// The first operator from ADMIN_EMAIL and ADMIN_PASSWORD: created once, reset when the password changes.
import { verifyPassword } from "@pointwise/auth";
import { backendPid, createTestDatabase, waitUntilBlockedBy } from "@pointwise/testkit";
import { createOperator, ensureFirstOperator } from "./operators";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe("the first operator from settings", () => {
  const email = "First@Pointwise.test";

  it("is created once with its project, then left alone while ADMIN_PASSWORD still matches", async () => {
    const first = await ensureFirstOperator(db, email, "first password 123", "Demo");
    expect(first).toMatchObject({ created: true, passwordReset: false });
    const again = await ensureFirstOperator(db, email, "first password 123", "Demo");
    expect(again).toEqual({ projectId: first.projectId, created: false, passwordReset: false });
    expect(await db.prisma.project.count()).toBe(1);
  });

  it("takes ADMIN_PASSWORD again when it changed (a new clone with new secrets on the same database), ending older sessions", async () => {
    const before = await db.prisma.operator.findFirstOrThrow({ where: { email: email.toLowerCase() } });
    const result = await ensureFirstOperator(db, email, "second password 456", "Demo");
    expect(result).toMatchObject({ created: false, passwordReset: true });
    const operator = await db.prisma.operator.findFirstOrThrow({ where: { email: email.toLowerCase() } });
    await expect(verifyPassword("second password 456", operator.passwordHash)).resolves.toBe(true);
    await expect(verifyPassword("first password 123", operator.passwordHash)).resolves.toBe(false);
    expect(operator.sessionVersion).toBe(before.sessionVersion + 1);
    expect(await db.prisma.project.count()).toBe(1);
  });
});

describe("adding an operator", () => {
  it("answers the account a concurrent invitation of the same e-mail committed while this one waited on it", async () => {
    const { id: projectId } = await db.prisma.project.create({ data: { name: "Race" } });
    const email = "race@pointwise.test";
    let inserted!: () => void;
    let release!: () => void;
    const rowInserted = new Promise<void>((r) => (inserted = r));
    const held = new Promise<void>((r) => (release = r));
    // The other invitation: its row is inserted but not committed until the second one is waiting on it.
    let holder!: number;
    const first = db.transaction(async (tx) => {
      holder = await backendPid(tx);
      await tx.query("INSERT INTO operator (project_id, email, password_hash) VALUES ($1, $2, 'x')", [projectId, email]);
      inserted();
      await held;
    });
    await rowInserted;
    const second = createOperator(db, projectId, email, "a-long-enough-password");
    await waitUntilBlockedBy(db, holder, "the second invitation to wait on the first");
    release();
    await first;
    const added = await second;
    const stored = await db.prisma.operator.findMany({ where: { projectId } });
    expect(stored).toHaveLength(1);
    expect(added).toMatchObject({ id: stored[0]?.id, email });
  });
});

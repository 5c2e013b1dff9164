// The first operator from ADMIN_EMAIL and ADMIN_PASSWORD: created once, reset when the password changes.
import { verifyPassword } from "@pointwise/auth";
import { createTestDatabase } from "@pointwise/testkit";
import { ensureFirstOperator } from "./operators";

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

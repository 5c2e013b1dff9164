// The built admin-api while its PostgreSQL backends are terminated again and again under a loop of
// user updates: it stays up and answers every request with success or a clear 503, never a 500.
import { type AppProcess, createTestDatabase, seedUser, spawnApp, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;

const EMAIL = "operator@pointwise.test";
const PASSWORD = "a-long-enough-password";

let db: Db;
let admin: AppProcess | undefined;
let schema: string;

beforeAll(async () => {
  schema = uniqueName("t_al");
  db = await createTestDatabase(schema);
});

afterAll(async () => {
  await admin?.stop("SIGKILL");
  await db.drop();
});

/** What one request came back as: its status and error code, or the network failure's name. */
type Outcome = { status: number; code?: string } | { dropped: string };

async function attempt(url: string, init: RequestInit): Promise<Outcome> {
  try {
    const res = await fetch(url, init);
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    return { status: res.status, ...(body?.error?.code ? { code: body.error.code } : {}) };
  } catch (err) {
    return { dropped: String((err as Error).cause ?? err) };
  }
}

describe("admin-api losing database connections", () => {
  it("stays up through repeated backend terminations under user updates, answering each with 200 or a clear 503", async () => {
    admin = await spawnApp("admin-api", {
      ...testServiceEnv(schema),
      ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
      ADMIN_EMAIL: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
    });
    const base = admin.url;
    const login = (await (
      await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      })
    ).json()) as { token: string };
    const headers = { authorization: `Bearer ${login.token}`, "content-type": "application/json" };
    const campaign = (await (
      await fetch(`${base}/api/campaigns`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Season", currencies: { xp: "Experience" }, primary_currency: "xp" }),
      })
    ).json()) as { id: string };
    const users = await Promise.all(Array.from({ length: 4 }, () => seedUser(db, campaign.id)));

    const outcomes: Outcome[] = [];
    let running = true;
    // Four callers, each renaming its own user as fast as answers come.
    const callers = users.map(async (user, k) => {
      for (let i = 0; running; i++) {
        outcomes.push(
          await attempt(`${base}/api/campaigns/${campaign.id}/users/${user}`, {
            method: "PATCH",
            headers,
            body: JSON.stringify({ display_name: `Player ${k}-${i}` }),
          }),
        );
      }
    });
    let terminated = 0;
    const until = Date.now() + 6000;
    while (Date.now() < until) {
      const { rows } = await db.query<{ ok: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
        [`admin-api@${schema}`],
      );
      terminated += rows.filter((r) => r.ok).length;
      await new Promise((r) => setTimeout(r, 100));
    }
    running = false;
    await Promise.all(callers);

    expect(terminated).toBeGreaterThan(3);
    expect(admin.child.exitCode).toBeNull();
    expect(admin.output()).not.toContain("Unhandled 'error' event");
    const unexpected = outcomes.filter((o) => !("status" in o) || (o.status !== 200 && !(o.status === 503 && o.code === "database-unavailable")));
    expect(unexpected).toEqual([]);
    expect(outcomes.filter((o) => "status" in o && o.status === 503).length).toBeGreaterThan(0);

    // Once the terminations stop, every update goes through again and ends where the last one left it.
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 10_000, "admin-api ready");
    for (const [k, user] of users.entries()) {
      const res = await attempt(`${base}/api/campaigns/${campaign.id}/users/${user}`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ display_name: `Final ${k}` }),
      });
      expect(res).toEqual({ status: 200 });
    }
    const { rows } = await db.query<{ display_name: string }>("SELECT display_name FROM app_user WHERE campaign_id = $1 ORDER BY display_name", [campaign.id]);
    expect(rows.map((r) => r.display_name)).toEqual(users.map((_, k) => `Final ${k}`));
    expect(await admin.stop("SIGTERM")).toBe(0);
  }, 60_000);
});

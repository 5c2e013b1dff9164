// Adding operators reveals nothing about other projects: a taken e-mail is answered like a new one, and sign-in finds accounts by e-mail and password.
import { type Harness, type Json, type Operator, startHarness } from "./harness";

const PASSWORD = "a-long-enough-password";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let h: Harness;
let a: Operator;
let b: Operator;

beforeAll(async () => {
  h = await startHarness();
  a = await h.newProject("Project A");
  b = await h.newProject("Project B");
});
afterAll(() => h?.close());

/** Everything stored about the operators with this e-mail. */
const accountsOf = async (email: string) =>
  (await h.deps.db.query("SELECT * FROM operator WHERE email = $1 ORDER BY created_at, id", [email.toLowerCase()])).rows;
/** The answer with what must differ between two invitations (ids, e-mails, times) replaced by their shapes. */
const shapeOf = (reply: { status: number; body: Json; headers: Headers }) => ({
  status: reply.status,
  keys: Object.keys(reply.body),
  id: UUID.test(reply.body.id),
  created_at: !Number.isNaN(Date.parse(reply.body.created_at)),
  contentType: reply.headers.get("content-type"),
  headers: [...reply.headers.keys()].sort(),
});
const signIn = (email: string, password: string, projectId?: string) =>
  h.call("POST", "/api/auth/login", { email, password, ...(projectId ? { project_id: projectId } : {}) });

describe("adding an operator whose e-mail another project uses", () => {
  it("answers exactly like an e-mail nobody uses, and leaves the other project's account as it was", async () => {
    const before = await accountsOf(a.email);
    const taken = await b.call("POST", "/api/operators", { email: a.email.toUpperCase(), password: "b-chose-this-password" });
    const fresh = await b.call("POST", "/api/operators", { email: "brand.new@pointwise.test", password: "b-chose-this-password" });
    expect(shapeOf(taken)).toEqual(shapeOf(fresh));
    expect(taken.status).toBe(201);
    expect(taken.body.email).toBe(a.email);
    expect(JSON.stringify(taken.body)).not.toContain(a.projectId);
    // A's account is untouched: same row, A's session and password still work, in A.
    expect((await accountsOf(a.email))[0]).toEqual(before[0]);
    expect((await a.call("GET", "/api/me")).body.project.name).toBe("Project A");
    expect(await signIn(a.email, PASSWORD)).toMatchObject({ status: 200, body: { project_id: a.projectId } });
    // A does not see B's account, B does not see A's.
    expect((await a.call("GET", "/api/operators")).body.operators.map((o: Json) => o.id)).toEqual([before[0].id]);
    expect((await b.call("GET", "/api/operators")).body.operators.map((o: Json) => o.email)).toEqual([b.email, a.email, "brand.new@pointwise.test"]);
  });

  it("answers every one of many concurrent invitations of one e-mail 201 with the same single account", async () => {
    const email = "at.once@pointwise.test";
    const replies = await Promise.all(Array.from({ length: 8 }, () => b.call("POST", "/api/operators", { email, password: "b-chose-this-password" })));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    const accounts = await accountsOf(email);
    expect(accounts).toHaveLength(1);
    expect(new Set(replies.map((r) => r.body.id))).toEqual(new Set([accounts[0].id]));
  });

  it("gives B an account of its own that B's password opens, as for any new e-mail", async () => {
    const email = (await h.newProject("Project C")).email;
    const added = await b.call("POST", "/api/operators", { email, password: "b-password-for-c" });
    const login = await signIn(email, "b-password-for-c");
    expect(login).toMatchObject({ status: 200, body: { project_id: b.projectId } });
    const me = await h.call("GET", "/api/me", undefined, { authorization: `Bearer ${login.body.token}` });
    expect(me.body.operator.id).toBe(added.body.id);
    expect(me.body.project.id).toBe(b.projectId);
  });

  it("takes about as long as adding an e-mail nobody uses", async () => {
    const timeOf = async (email: string) => {
      const started = performance.now();
      const res = await b.call("POST", "/api/operators", { email, password: "b-chose-this-password" });
      expect(res.status).toBe(201);
      return performance.now() - started;
    };
    const taken: number[] = [];
    const fresh: number[] = [];
    for (let i = 0; i < 5; i++) {
      taken.push(await timeOf((await h.newProject(`Timing ${i}`)).email));
      fresh.push(await timeOf(`nobody-${i}-${Date.now()}@pointwise.test`));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[2] as number;
    // Both hash the password and run one statement; only a loose bound holds on a shared machine.
    expect(median(taken)).toBeLessThan(median(fresh) * 2 + 20);
    expect(median(fresh)).toBeLessThan(median(taken) * 2 + 20);
  });
});

describe("signing in when an e-mail has accounts in several projects", () => {
  it("signs into the project whose account the password opens", async () => {
    const person = await h.newProject("Home");
    await b.call("POST", "/api/operators", { email: person.email, password: "the-b-side-password" });
    expect(await signIn(person.email, PASSWORD)).toMatchObject({ status: 200, body: { project_id: person.projectId } });
    expect(await signIn(person.email, "the-b-side-password")).toMatchObject({ status: 200, body: { project_id: b.projectId } });
    expect(await signIn(person.email, "neither-password")).toMatchObject({ status: 401, body: { error: { code: "invalid-credentials" } } });
  });

  it("asks for project_id when the same password opens several, and then signs into that one", async () => {
    const person = await h.newProject("Twice");
    await b.call("POST", "/api/operators", { email: person.email, password: PASSWORD });
    const ambiguous = await signIn(person.email, PASSWORD);
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error.code).toBe("project-choice-required");
    expect(ambiguous.body.error.message).toBe(
      `project_id: this e-mail and password open several projects; sign in again with one of ${person.projectId} (Twice), ${b.projectId} (Project B)`,
    );
    expect(await signIn(person.email, PASSWORD, b.projectId)).toMatchObject({ status: 200, body: { project_id: b.projectId } });
    expect(await signIn(person.email, PASSWORD, person.projectId)).toMatchObject({ status: 200, body: { project_id: person.projectId } });
    // A project the e-mail has no account in is a wrong password like any other.
    expect(await signIn(person.email, PASSWORD, a.projectId)).toMatchObject({ status: 401, body: { error: { code: "invalid-credentials" } } });
    expect((await signIn(person.email, PASSWORD, "nope")).body.error.message).toBe("project_id: must be a uuid");
  });

  it("takes about as long for an unknown e-mail as for a wrong password", async () => {
    const timeOf = async (email: string) => {
      const started = performance.now();
      expect((await signIn(email, "wrong-password")).status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await timeOf((await h.newProject(`Known ${i}`)).email));
      unknown.push(await timeOf(`unknown-${i}-${Date.now()}@pointwise.test`));
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1] as number;
    // Without the decoy check an unknown e-mail answers in a few ms; scrypt takes tens.
    expect(median(unknown)).toBeGreaterThan(median(known) / 2);
  });
});

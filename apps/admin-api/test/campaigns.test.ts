// admin-api sign-in, operators of a project, and campaigns: creating, updating, archiving and their bad words.
import jwt from "jsonwebtoken";
import { raceAgainstInsert } from "./harness";
import { sharedProject } from "./project";

const suite = sharedProject("Acme");

describe("signing in", () => {
  it("returns a session token for the right password and the same 401 for a wrong password or an unknown e-mail", async () => {
    const wrong = await suite.h.call("POST", "/api/auth/login", { email: suite.op.email, password: "not-the-password" });
    const unknown = await suite.h.call("POST", "/api/auth/login", { email: "nobody@pointwise.test", password: "not-the-password" });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "invalid-credentials", message: "e-mail or password is wrong" } } });
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.status).toBe(401);
  });

  it("names the field of a malformed sign-in body and refuses unknown fields", async () => {
    expect(await suite.h.call("POST", "/api/auth/login", { email: "not-an-email", password: "x" })).toMatchObject({
      status: 400,
      body: { error: { code: "validation-failed", message: "email: must be an e-mail address" } },
    });
    const extra = await suite.h.call("POST", "/api/auth/login", { email: suite.op.email, password: "x", admin: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain("admin");
    expect(await suite.h.call("POST", "/api/auth/login", "{not json", { "content-type": "application/json" })).toMatchObject({
      status: 400,
      body: { error: { code: "malformed-json" } },
    });
  });

  it("refuses API calls without a session, with a forged token, and with a token signed by another secret", async () => {
    expect((await suite.h.call("GET", "/api/campaigns")).body.error.code).toBe("unauthenticated");
    const [head, payload] = suite.op.token.split(".");
    const forged = `${head}.${payload}.${"A".repeat(43)}`;
    expect((await suite.h.call("GET", "/api/campaigns", undefined, { authorization: `Bearer ${forged}` })).status).toBe(401);
    expect((await suite.h.call("GET", "/api/campaigns", undefined, { authorization: "Bearer not-a-token" })).status).toBe(401);
    const otherSecret = jwt.sign({ pid: suite.op.projectId }, "another-secret-another-secret-0123456789", {
      subject: "x",
      audience: "pointwise-admin",
      expiresIn: 60,
    });
    expect((await suite.h.call("GET", "/api/campaigns", undefined, { authorization: `Bearer ${otherSecret}` })).status).toBe(401);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${payload}.`;
    expect((await suite.h.call("GET", "/api/campaigns", undefined, { authorization: `Bearer ${none}` })).status).toBe(401);
  });

  it("tells the operator who they are, their project and the public ingest URL", async () => {
    const me = await suite.op.call("GET", "/api/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      operator: { email: suite.op.email },
      project: { id: suite.op.projectId, name: "Acme" },
      settings: { ingest_public_url: "http://ingest.pointwise.test" },
    });
  });
});

describe("operators of a project", () => {
  it("lets an operator create another operator of the same project, who can then sign in and see the same campaigns", async () => {
    const created = await suite.op.call("POST", "/api/operators", { email: "Second.Person@Pointwise.test", password: "another-long-password" });
    expect(created.status).toBe(201);
    expect(created.body.email).toBe("second.person@pointwise.test");
    const login = await suite.h.call("POST", "/api/auth/login", { email: "second.person@pointwise.test", password: "another-long-password" });
    expect(login.status).toBe(200);
    expect(login.body.project_id).toBe(suite.op.projectId);
    const list = await suite.op.call("GET", "/api/operators");
    expect(list.body.operators.map((o: { email: string }) => o.email)).toEqual([suite.op.email, "second.person@pointwise.test"]);
  });

  it("refuses a short password, and answers an e-mail the project already has with that operator, unchanged", async () => {
    expect(await suite.op.call("POST", "/api/operators", { email: "third@pointwise.test", password: "short" })).toMatchObject({
      status: 400,
      body: { error: { message: "password: must be at least 12 characters" } },
    });
    const me = (await suite.op.call("GET", "/api/me")).body.operator;
    const again = await suite.op.call("POST", "/api/operators", { email: suite.op.email.toUpperCase(), password: "another-long-password" });
    expect(again).toMatchObject({ status: 201, body: { id: me.id, email: suite.op.email, created_at: me.created_at } });
    // Its password was not replaced, and no second account appeared.
    expect((await suite.h.call("POST", "/api/auth/login", { email: suite.op.email, password: "another-long-password" })).status).toBe(401);
    const list = await suite.op.call("GET", "/api/operators");
    expect(list.body.operators.filter((o: { email: string }) => o.email === suite.op.email)).toHaveLength(1);
  });
});

describe("campaigns", () => {
  it("creates a campaign with an xxxx-xxxx id, currencies and a primary currency, and lists and reads it", async () => {
    const created = await suite.op.call("POST", "/api/campaigns", {
      name: "Season 1",
      currencies: { xp: "Experience", gems: "Gems" },
      primary_currency: "xp",
      starts_at: "2026-01-01T00:00:00Z",
      ends_at: "2026-03-01T00:00:00+01:00",
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
    expect(created.body).toMatchObject({
      name: "Season 1",
      currencies: { xp: "Experience", gems: "Gems" },
      primary_currency: "xp",
      starts_at: "2026-01-01T00:00:00.000Z",
      ends_at: "2026-02-28T23:00:00.000Z",
      archived_at: null,
    });
    expect((await suite.op.call("GET", `/api/campaigns/${created.body.id}`)).body).toEqual(created.body);
    expect((await suite.op.call("GET", "/api/campaigns")).body.campaigns).toContainEqual(created.body);
  });

  it("accepts a chosen id once and answers 409 when it is taken", async () => {
    const body = { id: "acme-0001", name: "Chosen", currencies: { xp: "XP" }, primary_currency: "xp" };
    expect((await suite.op.call("POST", "/api/campaigns", body)).status).toBe(201);
    expect((await suite.op.call("POST", "/api/campaigns", body)).body.error).toEqual({ code: "campaign-exists", message: "campaign id acme-0001 is taken" });
  });

  it("answers 409 campaign-exists, not 500, when another request takes the id between its check and its insert", async () => {
    const body = { id: "acme-0002", name: "Raced", currencies: { xp: "XP" }, primary_currency: "xp" };
    const res = await raceAgainstInsert(
      suite.h,
      "INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ($1, $2, 'First', '{\"xp\": \"XP\"}', 'xp')",
      [body.id, suite.op.projectId],
      () => suite.op.call("POST", "/api/campaigns", body),
    );
    expect([res.status, res.body.error]).toEqual([409, { code: "campaign-exists", message: "campaign id acme-0002 is taken" }]);
  });

  it.each([
    [{ name: "", currencies: { xp: "XP" }, primary_currency: "xp" }, "name: must not be empty"],
    [{ name: "X", currencies: { xp: "XP" }, primary_currency: "gold" }, "primary_currency: must be one of the currency keys"],
    [{ name: "X", currencies: { XP: "XP" }, primary_currency: "XP" }, "currencies"],
    [{ name: "X", currencies: {}, primary_currency: "xp" }, "currencies"],
    [{ name: "X", id: "ABCD-1234", currencies: { xp: "XP" }, primary_currency: "xp" }, "id: campaign_id must have the format xxxx-xxxx"],
    [{ name: "X", currencies: { xp: "XP" }, primary_currency: "xp", starts_at: "yesterday" }, "starts_at: must be an ISO 8601 date-time"],
    [{ name: "X", currencies: { xp: "XP" }, primary_currency: "xp", ends_at: "0000-06-01T00:00:00Z" }, "ends_at: must not be in the year 0000"],
    [
      { name: "X", currencies: { xp: "XP" }, primary_currency: "xp", starts_at: "2026-02-01T00:00:00Z", ends_at: "2026-01-01T00:00:00Z" },
      "ends_at: must be later than starts_at",
    ],
    [{ name: "X", currencies: { xp: "XP" }, primary_currency: "xp", owner: "me" }, "owner"],
  ])("refuses %j with a message naming the field (%s)", async (body, message) => {
    const res = await suite.op.call("POST", "/api/campaigns", body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it("stores and reads back the first and the last instant it takes (years 0001 and 9999, UTC)", async () => {
    const dates = { starts_at: "0001-01-01T00:00:00.000Z", ends_at: "9999-12-31T23:59:59.999Z" };
    const res = await suite.op.call("POST", "/api/campaigns", { name: "Edges", currencies: { xp: "XP" }, primary_currency: "xp", ...dates });
    expect(res.status).toBe(201);
    expect((await suite.op.call("GET", `/api/campaigns/${res.body.id}`)).body).toMatchObject(dates);
  });

  it("updates name, currencies and dates, and refuses a primary currency that is not a currency", async () => {
    const { body: c } = await suite.op.call("POST", "/api/campaigns", { name: "Old", currencies: { xp: "XP" }, primary_currency: "xp" });
    const updated = await suite.op.call("PATCH", `/api/campaigns/${c.id}`, {
      name: "New",
      currencies: { xp: "Experience", gold: "Gold" },
      ends_at: "2027-01-01T00:00:00Z",
    });
    expect(updated.body).toMatchObject({
      name: "New",
      currencies: { xp: "Experience", gold: "Gold" },
      primary_currency: "xp",
      ends_at: "2027-01-01T00:00:00.000Z",
    });
    expect((await suite.op.call("PATCH", `/api/campaigns/${c.id}`, { primary_currency: "gems" })).body.error.message).toBe(
      "primary_currency: must be one of the currency keys",
    );
    expect((await suite.op.call("PATCH", `/api/campaigns/${c.id}`, { starts_at: "2028-01-01T00:00:00Z" })).body.error.message).toBe(
      "ends_at: must be later than starts_at",
    );
    expect((await suite.op.call("PATCH", `/api/campaigns/${c.id}`, {})).status).toBe(400);
    expect((await suite.op.call("PATCH", `/api/campaigns/${c.id}`, { ends_at: null })).body.ends_at).toBeNull();
  });

  it("keeps a currency that already has points when an update would remove it", async () => {
    const { body: c } = await suite.op.call("POST", "/api/campaigns", { name: "Scored", currencies: { xp: "XP", gems: "Gems" }, primary_currency: "xp" });
    await suite.h.deps.db.query("INSERT INTO score(campaign_id, user_id, currency, score, total, lifetime) VALUES ($1, gen_random_uuid(), 'gems', 5, 5, 5)", [
      c.id,
    ]);
    const res = await suite.op.call("PATCH", `/api/campaigns/${c.id}`, { currencies: { xp: "XP" } });
    expect(res).toMatchObject({ status: 409, body: { error: { code: "currency-in-use" } } });
    expect(res.body.error.message).toContain("gems");
  });

  it("archives a campaign without deleting it, refuses changes while archived, and restores it", async () => {
    const { body: c } = await suite.op.call("POST", "/api/campaigns", { name: "To archive", currencies: { xp: "XP" }, primary_currency: "xp" });
    await suite.op.call("POST", `/api/campaigns/${c.id}/event-types`, { name: "kept" });
    const archived = await suite.op.call("POST", `/api/campaigns/${c.id}/archive`);
    expect(archived.body.archived_at).toEqual(expect.any(String));
    // Archiving twice keeps the first time.
    expect((await suite.op.call("POST", `/api/campaigns/${c.id}/archive`)).body.archived_at).toBe(archived.body.archived_at);
    expect((await suite.op.call("GET", `/api/campaigns/${c.id}`)).status).toBe(200);
    expect((await suite.op.call("GET", `/api/campaigns/${c.id}/event-types`)).body.event_types).toHaveLength(1);
    expect((await suite.op.call("PATCH", `/api/campaigns/${c.id}`, { name: "x" })).body.error.code).toBe("campaign-archived");
    expect((await suite.op.call("POST", `/api/campaigns/${c.id}/api-keys`, {})).body.error.code).toBe("campaign-archived");
    expect((await suite.op.call("POST", `/api/campaigns/${c.id}/restore`)).body.archived_at).toBeNull();
    expect((await suite.op.call("PATCH", `/api/campaigns/${c.id}`, { name: "x" })).status).toBe(200);
  });

  it("answers 400 naming the parameter for a malformed campaign id and 404 for an unknown one", async () => {
    expect((await suite.op.call("GET", "/api/campaigns/not-an-id")).body.error.message).toContain("campaign id must have the format xxxx-xxxx");
    expect(await suite.op.call("GET", "/api/campaigns/zzzz-9999")).toMatchObject({ status: 404, body: { error: { code: "campaign-not-found" } } });
    // Express decodes path parameters while matching the route, before the handler that names them runs.
    expect(await suite.op.call("GET", "/api/campaigns/%ZZ/users")).toMatchObject({
      status: 400,
      body: { error: { code: "validation-failed", message: 'path segment "%ZZ" is not valid percent-encoding' } },
    });
  });
});

describe("bad words", () => {
  it("stores a campaign's bad-word list lowercased and without repeats, and refuses empty words", async () => {
    const { body: c } = await suite.op.call("POST", "/api/campaigns", { name: "Words", currencies: { xp: "XP" }, primary_currency: "xp" });
    expect((await suite.op.call("GET", `/api/campaigns/${c.id}/bad-words`)).body).toEqual({ bad_words: [] });
    const put = await suite.op.call("PUT", `/api/campaigns/${c.id}/bad-words`, { bad_words: ["Scam", "scam", " rug "] });
    expect(put.body).toEqual({ bad_words: ["scam", "rug"] });
    expect((await suite.op.call("GET", `/api/campaigns/${c.id}`)).body.bad_words).toEqual(["scam", "rug"]);
    expect((await suite.op.call("PUT", `/api/campaigns/${c.id}/bad-words`, { bad_words: ["ok", " "] })).body.error.message).toBe(
      "bad_words.1: must not be empty",
    );
  });
});

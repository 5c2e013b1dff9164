// admin-api API keys (shown once, stored hashed, allowed to backfill or not, revoked) and event types (registered, listed, retired).
import { apiKeyMatches } from "@pointwise/auth";
import { raceAgainstInsert, setUpCampaign } from "./harness";
import { sharedProject } from "./project";

const suite = sharedProject();

describe("API keys", () => {
  it("shows a new key once, stores only its prefix and hash, and lists prefix, created and last used", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const created = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "backend" });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^pw_[a-z2-7]{40}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 11));
    const { rows } = await suite.h.deps.db.query<{ prefix: string; hash: string }>("SELECT prefix, hash FROM api_key WHERE id = $1", [created.body.id]);
    expect(rows[0]?.hash).not.toContain(created.body.key);
    expect(apiKeyMatches(created.body.key, rows[0]?.hash as string)).toBe(true);

    await suite.h.deps.db.query("UPDATE api_key SET last_used_at = '2026-05-01T10:00:00Z' WHERE id = $1", [created.body.id]);
    const list = await suite.op.call("GET", `/api/campaigns/${campaignId}/api-keys`);
    expect(list.body.api_keys).toEqual([
      {
        id: created.body.id,
        prefix: created.body.prefix,
        label: "backend",
        backfill: false,
        created_at: created.body.created_at,
        last_used_at: "2026-05-01T10:00:00.000Z",
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
  });

  it("revokes a key once (a second revoke keeps the first time) and answers 404 for a key of another campaign", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const other = await setUpCampaign(suite.op);
    const { body: key } = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, {});
    const revoked = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys/${key.id}/revoke`);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys/${key.id}/revoke`)).body.revoked_at).toBe(revoked.body.revoked_at);
    expect((await suite.op.call("POST", `/api/campaigns/${other.campaignId}/api-keys/${key.id}/revoke`)).body.error.code).toBe("api-key-not-found");
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys/123/revoke`)).body.error.message).toBe("key_id must be a uuid");
  });

  it("refuses a label longer than 80 characters and unknown fields", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "x".repeat(81) })).body.error.message).toBe(
      "label: must be at most 80 characters",
    );
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { scopes: ["all"] })).status).toBe(400);
  });
});

describe("backfill keys", () => {
  const backfillOf = async (keyId: string) =>
    (await suite.h.deps.db.query<{ backfill: boolean }>("SELECT backfill FROM api_key WHERE id = $1", [keyId])).rows[0]?.backfill;

  it("creates a key allowed to backfill when asked (ordinary by default) and lists each key's backfill", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const keys = `/api/campaigns/${campaignId}/api-keys`;
    const ordinary = await suite.op.call("POST", keys, { label: "live" });
    const backfiller = await suite.op.call("POST", keys, { label: "indexer history", backfill: true });
    const explicit = await suite.op.call("POST", keys, { backfill: false });
    expect([ordinary.status, backfiller.status, explicit.status]).toEqual([201, 201, 201]);
    expect([ordinary.body.backfill, backfiller.body.backfill, explicit.body.backfill]).toEqual([false, true, false]);
    expect([await backfillOf(ordinary.body.id), await backfillOf(backfiller.body.id), await backfillOf(explicit.body.id)]).toEqual([false, true, false]);
    const list = await suite.op.call("GET", keys);
    expect(list.body.api_keys.map((k: { id: string; backfill: boolean }) => [k.id, k.backfill])).toEqual([
      [ordinary.body.id, false],
      [backfiller.body.id, true],
      [explicit.body.id, false],
    ]);
  });

  it("lets an operator allow and forbid backfill on an existing key, and change or clear its label", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const { body: key } = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "indexer" });
    const url = `/api/campaigns/${campaignId}/api-keys/${key.id}`;
    const allowed = await suite.op.call("PATCH", url, { backfill: true });
    expect(allowed).toMatchObject({ status: 200, body: { id: key.id, prefix: key.prefix, label: "indexer", backfill: true, revoked_at: null } });
    expect(await backfillOf(key.id)).toBe(true);
    // The same value again changes nothing and is no error.
    expect((await suite.op.call("PATCH", url, { backfill: true })).body.backfill).toBe(true);
    const forbidden = await suite.op.call("PATCH", url, { backfill: false, label: "live indexer" });
    expect(forbidden.body).toMatchObject({ backfill: false, label: "live indexer" });
    expect(await backfillOf(key.id)).toBe(false);
    expect((await suite.op.call("PATCH", url, { label: null })).body).toMatchObject({ label: null, backfill: false });
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/api-keys`)).body.api_keys[0]).toMatchObject({ id: key.id, label: null, backfill: false });
  });

  it.each([
    [{ backfill: "yes" }, "backfill: must be true or false"],
    [{ backfill: 1 }, "backfill: must be true or false"],
    [{ backfill: null }, "backfill: must be true or false"],
    [{}, "must change label or backfill"],
    [{ label: "x".repeat(81) }, "label: must be at most 80 characters"],
    [{ backfill: true, scopes: ["all"] }, "scopes"],
  ])("refuses the change %j with validation-failed naming the field (%s) and leaves the key as it was", async (body, message) => {
    const { campaignId } = await setUpCampaign(suite.op);
    const { body: key } = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, {});
    const res = await suite.op.call("PATCH", `/api/campaigns/${campaignId}/api-keys/${key.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation-failed");
    expect(res.body.error.message).toContain(message);
    expect(await backfillOf(key.id)).toBe(false);
  });

  it("refuses to change a revoked key with 409 api-key-revoked, and keeps it revoked and unchanged", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const { body: key } = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "leaked" });
    const revoked = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys/${key.id}/revoke`);
    const res = await suite.op.call("PATCH", `/api/campaigns/${campaignId}/api-keys/${key.id}`, { backfill: true });
    expect(res).toMatchObject({
      status: 409,
      body: { error: { code: "api-key-revoked", message: `API key ${key.prefix} was revoked at ${revoked.body.revoked_at}; a revoked key cannot be changed` } },
    });
    const { rows } = await suite.h.deps.db.query("SELECT backfill, label, revoked_at FROM api_key WHERE id = $1", [key.id]);
    expect(rows[0]).toEqual({ backfill: false, label: "leaked", revoked_at: new Date(revoked.body.revoked_at) });
  });

  it("answers 404 for a key of another campaign, 400 for a malformed key id and 409 on an archived campaign", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const other = await setUpCampaign(suite.op);
    const { body: key } = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, {});
    expect(await suite.op.call("PATCH", `/api/campaigns/${other.campaignId}/api-keys/${key.id}`, { backfill: true })).toMatchObject({
      status: 404,
      body: { error: { code: "api-key-not-found", message: `API key ${key.id} not found` } },
    });
    expect((await suite.op.call("PATCH", `/api/campaigns/${campaignId}/api-keys/123`, { backfill: true })).body.error.message).toBe("key_id must be a uuid");
    await suite.op.call("POST", `/api/campaigns/${campaignId}/archive`);
    expect((await suite.op.call("PATCH", `/api/campaigns/${campaignId}/api-keys/${key.id}`, { backfill: true })).body.error.code).toBe("campaign-archived");
    expect(await backfillOf(key.id)).toBe(false);
  });
});

describe("event types", () => {
  it("registers an event type and returns its reg_event_id, lists it, and refuses the same name twice", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const created = await suite.op.call("POST", `/api/campaigns/${campaignId}/event-types`, { name: "daily_login", description: "Signed in today" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      reg_event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "daily_login",
      description: "Signed in today",
      retired_at: null,
    });
    const list = await suite.op.call("GET", `/api/campaigns/${campaignId}/event-types`);
    expect(list.body.event_types.map((t: { name: string }) => t.name)).toEqual(["trade_volume", "daily_login"]);
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/event-types`, { name: "daily_login" })).body.error.code).toBe("event-type-exists");
  });

  it("answers 409 event-type-exists, not 500, when another request registers the name between its check and its insert", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const res = await raceAgainstInsert(suite.h, "INSERT INTO event_type(campaign_id, name) VALUES ($1, 'quest')", [campaignId], () =>
      suite.op.call("POST", `/api/campaigns/${campaignId}/event-types`, { name: "quest" }),
    );
    expect([res.status, res.body.error]).toEqual([
      409,
      { code: "event-type-exists", message: "name: event type quest is already registered in this campaign" },
    ]);
    const { rows } = await suite.h.deps.db.query("SELECT count(*)::int AS n FROM event_type WHERE campaign_id = $1 AND name = 'quest'", [campaignId]);
    expect(rows[0].n).toBe(1);
  });

  it("retires an event type (ingest then refuses it) and keeps the row", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const retired = await suite.op.call("POST", `/api/campaigns/${campaignId}/event-types/${regEventId}/retire`);
    expect(retired.body.retired_at).toEqual(expect.any(String));
    const { rows } = await suite.h.deps.db.query("SELECT retired_at FROM event_type WHERE id = $1", [regEventId]);
    expect(rows[0].retired_at.toISOString()).toBe(retired.body.retired_at);
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/event-types/${regEventId}/retire`)).body.retired_at).toBe(retired.body.retired_at);
  });

  it.each([
    [{ name: "" }, "name: must be 1-80 letters"],
    [{ name: "bad/name" }, "name: must be 1-80 letters"],
    [{ name: "ok", description: "d".repeat(501) }, "description: must be at most 500 characters"],
    [{ name: "ok", reg_event_id: "00000000-0000-4000-8000-000000000000" }, "reg_event_id"],
  ])("refuses %j naming the field", async (body, message) => {
    const { campaignId } = await setUpCampaign(suite.op);
    const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/event-types`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });
});

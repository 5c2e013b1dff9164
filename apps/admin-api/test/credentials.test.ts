// admin-api API keys (shown once, stored hashed, revoked) and event types (registered, listed, retired).
import { apiKeyMatches } from "@pointwise/auth";
import { setUpCampaign } from "./harness";
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

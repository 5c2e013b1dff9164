// CSV uploads through admin-api in both modes, checked against what reaches the campaign's stream.
import { createTestBus } from "@pointwise/testkit";
import { setUpCampaign } from "./harness";
import { sharedProject } from "./project";

const suite = sharedProject();

/** Raw events the campaign's subject holds on the stream. */
async function published(campaignId: string): Promise<{ source: string; amount: string; account_id: string }[]> {
  const bus = await createTestBus(suite.h.deps.env.NAMESPACE);
  try {
    const out = [];
    for (const msg of await bus.storedEvents()) {
      const event = JSON.parse(new TextDecoder().decode(msg.data));
      if (event.campaign_id === campaignId) out.push(event);
    }
    return out;
  } finally {
    await bus.close();
  }
}

const upload = (campaignId: string, csv: string, query = "") =>
  suite.op.call("POST", `/api/campaigns/${campaignId}/csv-imports${query}`, csv, { "content-type": "text/csv" });

function csvOf(regEventId: string, rows: string[][]): string {
  return ["account_id,identity_type,amount,reg_event_id", ...rows.map((r) => [...r, regEventId].join(","))].join("\n");
}

describe("CSV uploads", () => {
  const good1 = ["0x00000000000000000000000000000000000000a1", "EVM_ADDRESS", "10"];
  const bad = ["someone@pointwise.test", "EMAIL", "-5"];
  const good2 = ["42", "DISCORD_PROVIDER_ID", "2.5"];

  it("publishes nothing in all-or-nothing mode when a row is bad, and names the bad row's line and reason", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const res = await upload(campaignId, csvOf(regEventId, [good1, bad, good2]), "?file_name=season.csv");
    expect(res.status).toBe(200);
    expect(res.body.import).toMatchObject({
      campaign_id: campaignId,
      mode: "all-or-nothing",
      origin: "admin-api",
      file_name: "season.csv",
      status: "rejected",
      rows_read: 3,
      rows_valid: 2,
      rows_invalid: 1,
      rows_published: 0,
    });
    expect(res.body.invalid_rows).toEqual([{ line: 3, errors: [{ message: "amount must not be negative", extensions: { code: "negative-amount" } }] }]);
    expect(res.body.invalid_rows_truncated).toBe(false);
    expect(await published(campaignId)).toEqual([]);

    const progress = await suite.op.call("GET", `/api/campaigns/${campaignId}/csv-imports/${res.body.import.import_id}`);
    expect(progress.body).toMatchObject({ status: "rejected", rows_invalid: 1, sample_errors: res.body.invalid_rows, finished_at: expect.any(String) });
  });

  it("publishes the valid rows with source csv in accept-valid mode", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const res = await upload(campaignId, csvOf(regEventId, [good1, bad, good2]), "?mode=accept-valid");
    expect(res.body.import).toMatchObject({ mode: "accept-valid", status: "done", rows_valid: 2, rows_invalid: 1, rows_published: 2 });
    const events = await published(campaignId);
    expect(events.map((e) => [e.account_id, e.amount, e.source])).toEqual([
      ["0x00000000000000000000000000000000000000a1", "10", "csv"],
      ["42", "2.5", "csv"],
    ]);
    const list = await suite.op.call("GET", `/api/campaigns/${campaignId}/csv-imports`);
    expect(list.body.csv_imports.map((i: { import_id: string }) => i.import_id)).toEqual([res.body.import.import_id]);
  });

  it("publishes a file sent again with the same Idempotency-Key as the same events, and refuses a malformed key", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const keyed = (key: string) =>
      suite.op.call("POST", `/api/campaigns/${campaignId}/csv-imports`, csvOf(regEventId, [good1, good2]), {
        "content-type": "text/csv",
        "idempotency-key": key,
      });
    expect((await keyed("season-1")).body.import).toMatchObject({ status: "done", rows_published: 2 });
    expect((await keyed("season-1")).body.import).toMatchObject({ status: "done", rows_published: 2 });
    // Each event once in the stream: the second upload's messages carried the same ids, which JetStream dropped.
    const first = await published(campaignId);
    expect(first).toHaveLength(2);
    await keyed("season-2");
    expect(await published(campaignId)).toHaveLength(4);
    const bad = await keyed("a key with spaces");
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid-idempotency-key"]);
  });

  it("refuses a body that is not text/csv, an unknown mode, a wrong header row, and an archived campaign", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const json = await suite.op.call("POST", `/api/campaigns/${campaignId}/csv-imports`, { rows: [] });
    expect(json.body.error).toEqual({ code: "unsupported-media-type", message: "Content-Type must be text/csv (the file's bytes as the request body)" });
    expect((await upload(campaignId, csvOf(regEventId, [good1]), "?mode=some")).body.error.message).toBe("mode: must be all-or-nothing or accept-valid");
    const header = await upload(campaignId, "wallet,amount\n0x1,1");
    expect(header).toMatchObject({ status: 400, body: { error: { code: "csv-invalid-header" } } });
    expect(header.body.error.message).toContain("missing column");
    await suite.op.call("POST", `/api/campaigns/${campaignId}/archive`);
    expect((await upload(campaignId, csvOf(regEventId, [good1]))).body.error.code).toBe("campaign-archived");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/csv-imports/00000000-0000-4000-8000-000000000000`)).body.error.code).toBe(
      "csv-import-not-found",
    );
  });
});

// Parameters beyond what PostgreSQL can hold are refused with 400 naming the parameter, not answered 500 by a failed query.
import { setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { logEvents } from "./seed";

const suite = sharedProject();

describe("parameters bounded by their storage", () => {
  it("refuses a ledger `before` past PostgreSQL's bigint (2^63 - 1) and still pages with the largest one", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [userId] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: `0x${"3".repeat(40)}`, amount: "1", regEventId }]);
    const ledger = (before: string) => suite.op.call("GET", `/api/campaigns/${campaignId}/users/${userId}/ledger?before=${before}`);
    for (const before of ["9223372036854775808", "18446744073709551616", "99999999999999999999"]) {
      expect(await ledger(before)).toMatchObject({
        status: 400,
        body: {
          error: { code: "validation-failed", message: "before: must be an entry id from a previous page: a whole number from 1 to 9223372036854775807" },
        },
      });
    }
    const largest = await ledger("9223372036854775807");
    expect(largest.status).toBe(200);
    expect(largest.body.next_before).toBeNull();
  });

  it("refuses text with the character U+0000 in a body or a query, naming the field, and stores nothing", async () => {
    const created = await suite.op.call("POST", "/api/campaigns", { name: "Sea\u0000son", currencies: { xp: "Experience" }, primary_currency: "xp" });
    expect(created).toMatchObject({ status: 400, body: { error: { code: "validation-failed", message: "name: must not contain the character U+0000" } } });
    const { campaignId } = await setUpCampaign(suite.op);
    const key = await suite.op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "a\u0000b" });
    expect(key.body.error.message).toBe("label: must not contain the character U+0000");
    const words = await suite.op.call("PUT", `/api/campaigns/${campaignId}/bad-words`, { bad_words: ["fine", "not\u0000fine"] });
    expect(words.body.error.message).toBe("bad_words.1: must not contain the character U+0000");
    const rules = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: { currencies: { "x\u0000p": {} } } });
    expect(rules).toMatchObject({ status: 400, body: { error: { message: "document.currencies.x\u0000p: must not contain the character U+0000" } } });
    const upload = await suite.op.call(
      "POST",
      `/api/campaigns/${campaignId}/csv-imports?file_name=a%00b.csv`,
      "account_id,identity_type,amount,reg_event_id\n",
      {
        "content-type": "text/csv",
      },
    );
    expect(upload).toMatchObject({ status: 400, body: { error: { message: "file_name: must not contain the character U+0000" } } });
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/api-keys`)).body.api_keys ?? []).toEqual([]);
  });
});

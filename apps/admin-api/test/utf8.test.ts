// Bodies that are not UTF-8 text are refused with invalid-utf8 before anything is parsed or stored: JSON bodies and CSV uploads.
import { type Json, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { logEvents } from "./seed";

const suite = sharedProject();

/** Sends raw bytes with the operator's session. */
async function send(method: string, path: string, bytes: Buffer, contentType: string) {
  const res = await fetch(`${suite.h.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${suite.op.token}`, "content-type": contentType },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** `text` with `#` replaced by the bytes given. */
const bytesOf = (text: string, bad: number[]) => {
  const [before, after] = text.split("#");
  return Buffer.concat([Buffer.from(before as string), Buffer.from(bad), Buffer.from(after as string)]);
};

describe("bytes that are not UTF-8", () => {
  it("refuses a JSON body with invalid-utf8 and links no identity, where decoding would have stored U+FFFD", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [userId] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: `0x${"1".repeat(40)}`, amount: "1", regEventId }]);
    const body = '{"identity_type":"DISCORD_PROVIDER_ID","account_id":"12#34"}';
    // A stray byte, a cut character, a surrogate and a code point past U+10FFFF: each starts where the # is.
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      const res = await send("POST", `/api/campaigns/${campaignId}/users/${userId}/identities`, bytesOf(body, bad), "application/json");
      expect(res).toEqual({
        status: 400,
        body: { error: { code: "invalid-utf8", message: `body must be UTF-8 text: the bytes after byte ${body.indexOf("#")} are not valid UTF-8` } },
      });
    }
    const { rows } = await suite.h.deps.db.query("SELECT account_id FROM identity WHERE campaign_id = $1 AND identity_type = 'DISCORD_PROVIDER_ID'", [
      campaignId,
    ]);
    expect(rows).toEqual([]);
  });

  it("still takes the same body as UTF-8 text", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [userId] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: `0x${"2".repeat(40)}`, amount: "1", regEventId }]);
    const res = await send(
      "POST",
      `/api/campaigns/${campaignId}/users/${userId}/identities`,
      Buffer.from('{"identity_type":"EMAIL","account_id":"zoë@example.com"}'),
      "application/json",
    );
    expect(res.status).toBe(201);
    expect(res.body.identity.account_id).toBe("zoë@example.com");
  });

  it("refuses a CSV upload with a byte that is not UTF-8 in a row, and publishes nothing", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const csv = `account_id,identity_type,amount,reg_event_id\n42,DISCORD_PROVIDER_ID,1,${regEventId}\n4#3,DISCORD_PROVIDER_ID,1,${regEventId}\n`;
    const res = await send("POST", `/api/campaigns/${campaignId}/csv-imports?mode=accept-valid`, bytesOf(csv, [0xff]), "text/csv");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid-utf8");
    expect(res.body.error.message).toMatch(/^CSV file must be UTF-8 text: the bytes after byte \d+ are not valid UTF-8$/);
    const imports = await suite.op.call("GET", `/api/campaigns/${campaignId}/csv-imports`);
    expect(imports.body.csv_imports).toMatchObject([{ status: "failed", rows_published: 0 }]);
  });
});

// The event-type lookup in PostgreSQL: types of the campaign, judged as they were at a time of receipt, and its cache.
import { createDatabase } from "@pointwise/db";
import { seedCampaignWithKey, seedEventType, testUrls } from "@pointwise/testkit";
import { useSeed } from "../test/fixtures";
import { createEventTypeLookup } from "./event-types";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const s = useSeed();

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

describe("event-type lookup", () => {
  it("counts a type retired at T as active for a time of receipt before T and not at or after it", async () => {
    const retiredAt = Date.parse("2026-11-30T12:00:00.000Z");
    const retired = await seedEventType(s.db, s.campaignId, { name: "retired-at-noon" });
    await s.db.query("UPDATE event_type SET retired_at = $2 WHERE id = $1", [retired, new Date(retiredAt)]);
    const lookup = createEventTypeLookup(s.db, 0);
    const ids = [s.regEventId, retired, UNKNOWN];
    expect([...(await lookup.active(s.campaignId, ids, retiredAt - 1))].sort()).toEqual([s.regEventId, retired].sort());
    expect([...(await lookup.active(s.campaignId, ids, retiredAt))]).toEqual([s.regEventId]);
    expect([...(await lookup.active(s.campaignId, ids, retiredAt + 60_000))]).toEqual([s.regEventId]);
  });

  it("does not count another campaign's type", async () => {
    const other = await seedCampaignWithKey(s.db, { id: "core-0002", projectId: "00000000-0000-4000-8000-0000000000c1" });
    const lookup = createEventTypeLookup(s.db, 0);
    expect([...(await lookup.active(s.campaignId, [other.regEventId], Date.now()))]).toEqual([]);
    expect([...(await lookup.active("core-0002", [other.regEventId], Date.now()))]).toEqual([other.regEventId]);
  });

  it("judges cached types by each request's time of receipt, and reads a change only once the cache entry expires", async () => {
    const type = await seedEventType(s.db, s.campaignId, { name: "cached" });
    const retiredAt = Date.parse("2026-11-30T13:00:00.000Z");
    await s.db.query("UPDATE event_type SET retired_at = $2 WHERE id = $1", [type, new Date(retiredAt)]);
    const lookup = createEventTypeLookup(s.db, 300);
    expect([...(await lookup.active(s.campaignId, [type, UNKNOWN], retiredAt - 1))]).toEqual([type]);
    // From the cache: the same entry answers a later time of receipt, and a new retirement time is not yet read.
    await s.db.query("UPDATE event_type SET retired_at = NULL WHERE id = $1", [type]);
    expect([...(await lookup.active(s.campaignId, [type], retiredAt))]).toEqual([]);
    expect([...(await lookup.active(s.campaignId, [type], retiredAt - 1))]).toEqual([type]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect([...(await lookup.active(s.campaignId, [type, UNKNOWN], retiredAt + 1))]).toEqual([type]);
  });

  it("answers service-unavailable when PostgreSQL cannot be asked", async () => {
    const closed = createDatabase({ url: testUrls.database, schema: s.db.schema, max: 1 });
    await closed.close();
    const lookup = createEventTypeLookup(closed, 0);
    await expect(lookup.active(s.campaignId, [s.regEventId], Date.now())).rejects.toMatchObject({ code: "service-unavailable" });
  });
});

// ingest-api's rate limit while Redis cannot be reached: not enforced (events accepted) and a warning
// logged, as docs/api/ingest.md says; enforced again once Redis is back.
import { createTcpProxy, type TcpProxy, testUrls, waitUntil } from "@pointwise/testkit";
import { type Harness, startHarness, validBody } from "./harness";

const ONE = "/api/rest/earn-event";
let proxy: TcpProxy;
let h: Harness;

beforeAll(async () => {
  proxy = await createTcpProxy(testUrls.redis);
  await proxy.start();
  h = await startHarness({ RATE_LIMIT_EVENTS_PER_SECOND: "1", RATE_LIMIT_BURST: "1", BATCH_MAX_EVENTS: "1" }, { redisUrl: proxy.url });
});
afterAll(async () => {
  await proxy?.start();
  await h?.close();
  await proxy?.stop();
});

describe("rate limit without Redis", () => {
  it("accepts events beyond the limit and logs one warning while Redis is away, and limits again once it is back", async () => {
    expect((await h.post(ONE, validBody(h))).body.data.event_id).toBeDefined();
    expect((await h.post(ONE, validBody(h))).body.errors[0].extensions.code).toBe("rate-limited");

    await proxy.stop();
    const before = await h.count();
    for (let i = 0; i < 4; i++) expect((await h.post(ONE, validBody(h))).body.data.event_id).toBeDefined();
    expect(await h.count()).toBe(before + 4);
    const warnings = h.logs.filter((l) => l.msg === "rate limit not enforced: Redis unavailable");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe("warn");

    await proxy.start();
    await waitUntil(async () => (await h.post(ONE, validBody(h))).body.errors?.[0]?.extensions.code === "rate-limited", 15_000, "the limit enforced again");
  });
});

// The response cache against a real Redis: a body built across a drop of its key is answered but not kept.
import { createLogger } from "@pointwise/logger";
import { createTestCache, uniqueName } from "@pointwise/testkit";
import { createResponseCache, type ResponseCache } from "../src/response-cache";

const logger = createLogger({ service: "read-api", level: "silent" });
let cache: Awaited<ReturnType<typeof createTestCache>>;
beforeAll(async () => {
  cache = await createTestCache(uniqueName("rc"));
});
afterAll(() => cache.drop());

const responses = (): ResponseCache => createResponseCache({ cache, logger, ttlMs: 600_000, staleTtlMs: 600_000 });

/** A build that answers `body` once `release` is called. */
function heldBuild(body: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const build = async () => {
    started();
    await released;
    return body;
  };
  return { build, running, release };
}

describe("a drop while a body is being built", () => {
  it("answers the waiting request with what was built, and stores it for no one: this and every other process build afresh", async () => {
    const [here, there] = [responses(), responses()];
    const user = ["user", "u1"];
    const before = heldBuild('{"total":10}');
    const answer = here.get(user, before.build);
    await before.running;
    // The worker commits and announces meanwhile: every process drops the user's entries.
    await Promise.all([here.drop(user), there.drop(user)]);
    before.release();
    expect((await answer).body).toBe('{"total":10}');
    expect(await cache.get(cache.key("read", ...user))).toBeNull();
    expect((await here.get(user, async () => '{"total":25}')).body).toBe('{"total":25}');
    expect((await there.get(user, async () => '{"total":99}')).body).toBe('{"total":25}');
  });

  it("keeps a body whose build no drop of its key crossed, a drop of another key included", async () => {
    const rc = responses();
    const build = heldBuild('{"total":7}');
    const answer = rc.get(["user", "u2"], build.build);
    await build.running;
    await rc.drop(["user", "u3"]);
    build.release();
    expect((await answer).body).toBe('{"total":7}');
    expect(await cache.get(cache.key("read", "user", "u2"))).toBe('{"total":7}');
    expect((await rc.get(["user", "u2"], async () => '{"total":8}')).body).toBe('{"total":7}');
  });
});

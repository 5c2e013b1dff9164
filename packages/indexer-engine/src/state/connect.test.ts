// Connecting the state store: a connection cut at first is retried at once and logged; a store that stays unreachable fails once the reconnect policy's retries are used up.
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { capturingLogger } from "../testing/fixtures";
import { DEFAULT_RECONNECT, reconnectDelay, StateStore } from "./store";

/** A local TCP proxy to the test Redis that cuts the first `refuse` connections as soon as they open. */
async function flakyProxy(refuse: number): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    accepted++;
    if (accepted <= refuse) return socket.destroy();
    const upstream = connect(6379, "127.0.0.1");
    sockets.add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("state store connection", () => {
  it("retries a connection cut at once and logs the failure as a warning", async () => {
    const proxy = await flakyProxy(1);
    const { logger, lines } = capturingLogger();
    let store: StateStore | undefined;
    try {
      store = await StateStore.connect({ url: proxy.url, keyPrefix: "pwt-connect", indexerId: "c", configHash: "cfg" }, logger);
      expect(await store.loadCheckpoint()).toBeUndefined();
      expect(proxy.accepted()).toBe(2);
      const errors = lines.filter((l) => l.msg === "state store connection error");
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.map((l) => [l.level, l.err])).toContainEqual(["warn", "Socket closed unexpectedly"]);
      expect(errors.every((l) => l.level === "warn" && l.err === "Socket closed unexpectedly")).toBe(true);
    } finally {
      await store?.close();
      await proxy.close();
    }
  });

  it("gives up once the policy's retries are used up, waiting each retry's delay, naming the URL without the password", async () => {
    const proxy = await flakyProxy(Number.POSITIVE_INFINITY);
    const { logger } = capturingLogger();
    const url = proxy.url.replace("redis://", "redis://user:secret@");
    const started = performance.now();
    try {
      await expect(
        StateStore.connect({ url, keyPrefix: "pwt-connect", indexerId: "c", configHash: "cfg", reconnect: { retries: 4, stepMs: 40, maxDelayMs: 60 } }, logger),
      ).rejects.toMatchObject({
        code: "state-store-unavailable",
        message: `State store unreachable at ${proxy.url.replace("redis://", "redis://***@")}`,
        cause: { message: "Socket closed unexpectedly" },
      });
      // The first attempt and 4 retries after 0, 40, 60 (not 80) and 60 ms.
      expect(proxy.accepted()).toBe(5);
      expect(performance.now() - started).toBeGreaterThanOrEqual(160);
    } finally {
      await proxy.close();
    }
  });

  it("retries 21 times by default, the first at once, 0.2 s later each time up to 2 s: 31 s in all", () => {
    const delays = Array.from({ length: 23 }, (_, retry) => reconnectDelay(retry, DEFAULT_RECONNECT));
    expect(delays.slice(0, 12)).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2000]);
    expect(delays.slice(20)).toEqual([2000, false, false]);
    const waits = delays.filter((d): d is number => d !== false);
    expect(waits).toHaveLength(21);
    // 200 ms * (1 + ... + 10) below the cap, then ten retries at 2 s.
    expect(waits.reduce((a, b) => a + b, 0)).toBe(200 * 55 + 10 * 2000);
  });
});

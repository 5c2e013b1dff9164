import type { Bus } from "@pointwise/bus";
import type { RawEventMessage } from "@pointwise/schemas";
import { type createTestDatabase, seedCampaignWithKey, seedProject } from "@pointwise/testkit";

/** Seeds a campaign with a key and an event type for the spawned-process tests. */
export async function seedCampaign(db: Awaited<ReturnType<typeof createTestDatabase>>, campaignId: string): Promise<{ key: string; regEventId: string }> {
  const projectId = await seedProject(db, { id: "00000000-0000-4000-8000-0000000000e1", name: "p" });
  const { key, regEventId } = await seedCampaignWithKey(db, { id: campaignId, projectId });
  return { key, regEventId };
}

/** Every message of the events stream, in order. */
export async function streamMessages(bus: Bus): Promise<RawEventMessage[]> {
  const info = await bus.jsm.streams.info(bus.names.eventsStream);
  const out: RawEventMessage[] = [];
  if (info.state.messages === 0) return out;
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    out.push((await bus.jsm.streams.getMessage(bus.names.eventsStream, { seq })).json<RawEventMessage>());
  }
  return out;
}

/** POSTs JSON and returns the parsed answer and its headers; throws only when no HTTP answer came. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert each field they read
export async function postJson(url: string, body: unknown, headers: Record<string, string>): Promise<{ body: any; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { body: JSON.parse(text), headers: res.headers, text };
}

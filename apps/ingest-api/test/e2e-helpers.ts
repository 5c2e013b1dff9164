import { generateApiKey } from "@pointwise/auth";
import type { Bus } from "@pointwise/bus";
import type { RawEventMessage } from "@pointwise/schemas";
import type { createTestDatabase } from "@pointwise/testkit";

/** Seeds a campaign with a key and an event type for the spawned-process tests. */
export async function seedCampaign(db: Awaited<ReturnType<typeof createTestDatabase>>, campaignId: string): Promise<{ key: string; regEventId: string }> {
  await db.query("INSERT INTO project(id, name) VALUES ('00000000-0000-4000-8000-0000000000e1', 'p') ON CONFLICT DO NOTHING");
  await db.query(
    "INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ($1, '00000000-0000-4000-8000-0000000000e1', 'c', '{\"xp\":\"XP\"}', 'xp')",
    [campaignId],
  );
  const key = generateApiKey();
  await db.query("INSERT INTO api_key(campaign_id, prefix, hash) VALUES ($1, $2, $3)", [campaignId, key.prefix, key.hash]);
  const { rows } = await db.query<{ id: string }>("INSERT INTO event_type(campaign_id, name) VALUES ($1, 'e') RETURNING id", [campaignId]);
  return { key: key.key, regEventId: (rows[0] as { id: string }).id };
}

/** Every message of the events stream, in order. */
export async function streamMessages(bus: Bus): Promise<RawEventMessage[]> {
  return (await bus.storedEvents()).map((m) => m.json<RawEventMessage>());
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

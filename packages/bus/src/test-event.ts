// A valid raw event for the bus's own tests against the real NATS.
import { randomUUID } from "node:crypto";
import type { RawEventMessage } from "@pointwise/schemas";

/** A raw event of `campaignId` with a fresh event id, as ingest would publish it. */
export function testEvent(campaignId: string): RawEventMessage {
  return {
    v: 1,
    event_id: randomUUID(),
    campaign_id: campaignId,
    account_id: "123",
    identity_type: "DISCORD_PROVIDER_ID",
    amount: "1",
    reg_event_id: "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11",
    received_at: new Date().toISOString(),
    source: "api",
  };
}

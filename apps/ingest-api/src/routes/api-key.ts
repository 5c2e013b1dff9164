// `GET /api/rest/api-key`: what the presented key may do (its campaign, backfill permission and event types).

import { RetryableError } from "@pointwise/errors";
import { success } from "@pointwise/ingest-core";
import type { Express, Response } from "express";
import type { IngestContext } from "../context";
import { authenticate, begin } from "../guards";
import { admitted } from "./events";

interface KeyFacts {
  backfill: boolean;
  event_types: string[];
}

/** Reads the key's backfill flag and its campaign's active event types, fresh from PostgreSQL. */
async function keyFacts(ctx: IngestContext, keyId: string, campaignId: string): Promise<KeyFacts> {
  try {
    const [key, types] = await Promise.all([
      ctx.deps.db.query<{ backfill: boolean }>("SELECT backfill FROM api_key WHERE id = $1", [keyId]),
      ctx.deps.db.query<{ id: string }>("SELECT id::text AS id FROM event_type WHERE campaign_id = $1 AND retired_at IS NULL ORDER BY created_at, id", [
        campaignId,
      ]),
    ]);
    return { backfill: key.rows[0]?.backfill === true, event_types: types.rows.map((r) => r.id) };
  } catch (err) {
    throw new RetryableError("service-unavailable", "the API key cannot be looked up right now; retry later", { cause: err });
  }
}

/**
 * `GET /api/rest/api-key` answers, for a valid key, `{ data: { campaign_id, backfill, event_types } }`, so a client
 * (the indexer at start) can check it holds the right campaign's key before sending anything. Authentication, the
 * envelope and the rate limit (one unit per request) are those of the event routes; a missing, wrong or revoked key
 * gets the answer the earn-event endpoint gives.
 */
export function registerApiKeyRoute(app: Express, ctx: IngestContext): void {
  app.get("/api/rest/api-key", begin(ctx, "api-key"), authenticate(ctx), async (_req, res: Response) => {
    const owner = ctx.state(res).owner;
    if (owner === undefined) return;
    if (!(await admitted(ctx, res, 1))) return;
    const facts = await keyFacts(ctx, owner.keyId, owner.campaignId);
    ctx.send(res, success({ campaign_id: owner.campaignId, ...facts }), { outcome: "accepted", codes: [] });
  });
}

import { ValidationError } from "@pointwise/errors";
import { createHttpApp, finishHttpApp } from "@pointwise/runtime";
import { isCampaignId } from "@pointwise/schemas";
import type { Express } from "express";
import type { Deps } from "./deps";
import { buildLeaderboard } from "./leaderboard";

/** Parses `limit`: absent means 100; otherwise a whole number from 1 to 1000. */
export function parseLimit(raw: unknown): number {
  if (raw === undefined) return 100;
  if (typeof raw !== "string" || !/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000) {
    throw new ValidationError("limit must be a whole number from 1 to 1000", { field: "limit", code: "invalid-limit" });
  }
  return Number(raw);
}

/** Builds the read-api express app. */
export function createReadApp(deps: Deps): Express {
  const app = createHttpApp({
    logger: deps.logger,
    readiness: [
      { name: "postgres", check: () => deps.db.ping() },
      { name: "redis", check: () => deps.cache.ping() },
    ],
  });

  app.get("/leaderboard", async (req, res) => {
    const campaignId = req.query.campaign_id;
    if (!isCampaignId(campaignId)) {
      throw new ValidationError("campaign_id is required and must have the format xxxx-xxxx", { field: "campaign_id", code: "invalid-campaign-id" });
    }
    const limit = parseLimit(req.query.limit);
    const body = await deps.cache.getOrBuild(deps.cache.key("lb", campaignId, String(limit)), deps.env.CACHE_TTL_MS, async () =>
      JSON.stringify(await buildLeaderboard(deps, campaignId, limit)),
    );
    res.set("Cache-Control", "public, max-age=60").type("application/json").send(body);
  });

  return finishHttpApp(app, deps.logger);
}

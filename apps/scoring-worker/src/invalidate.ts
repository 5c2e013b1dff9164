// What the worker announces after an applied batch; the message and its user limit are @pointwise/schemas' ScoresChanged.
import type { ApplyResult } from "@pointwise/rules";
import { type ScoresChanged, scoresChangeOf } from "@pointwise/schemas";

/** The message for an applied batch, or null when the batch changed no score row. */
export function batchChange(campaignId: string, ruleVersion: number, result: ApplyResult, lastSeq: string | null, now: Date): ScoresChanged | null {
  return scoresChangeOf({ campaignId, reason: "events", ruleVersion, rows: result.scoreDeltas, lastSeq, now });
}

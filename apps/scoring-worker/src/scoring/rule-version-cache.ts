// A cache of parsed rule versions, read from the rule_version table.
import { activeRuleVersion, type Queryable } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { parseRuleVersion, type RuleVersion } from "@pointwise/rules";

/** Parsed rule versions by row id; a rule_version row never changes, so an entry never goes stale. */
export class RuleVersionCache {
  private readonly parsed = new Map<string, RuleVersion>();

  /** Parses a stored rule document once per row and hands back the same object after that. */
  parse(id: string, document: unknown): RuleVersion {
    let rules = this.parsed.get(id);
    if (!rules) {
      try {
        rules = parseRuleVersion(document);
      } catch (err) {
        // Retryable on purpose: the campaign's events stay in the inbox (nothing is dropped or
        // dead-lettered) until an operator activates a version this engine can read.
        throw new RetryableError("rule-version-unusable", `rule version ${id} does not validate: ${(err as Error).message}`, { cause: err });
      }
      this.parsed.set(id, rules);
    }
    return rules;
  }

  /** The campaign's active rule version, or null when none is active (events are only logged). */
  async active(db: Queryable, campaignId: string): Promise<RuleVersion | null> {
    const row = await activeRuleVersion(db, campaignId);
    return row ? this.parse(row.id, row.document) : null;
  }

  /** A given version of a campaign's rules, or null when that version does not exist. */
  async version(db: Queryable, campaignId: string, version: number): Promise<RuleVersion | null> {
    const { rows } = await db.query<{ id: string; document: unknown }>("SELECT id, document FROM rule_version WHERE campaign_id = $1 AND version = $2", [
      campaignId,
      version,
    ]);
    const row = rows[0];
    return row ? this.parse(row.id, row.document) : null;
  }
}

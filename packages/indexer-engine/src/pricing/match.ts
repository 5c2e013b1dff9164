// Matches assets against pricing feed rules by address or labels to choose each asset's feed.
import type { AssetFeedRule, AssetMatch, FeedSelector, MatchExpression } from "../config/schema";

/** True when an asset (lowercase address) with `labels` fits a rule's match. */
export function matches(match: AssetMatch, asset: string, labels: Readonly<Record<string, string>>): boolean {
  if (match.key !== undefined) return match.key === asset;
  if (match.matchLabels !== undefined) return Object.entries(match.matchLabels).every(([k, v]) => labels[k] === v);
  return (match.matchExpressions ?? []).every((expr) => holds(expr, labels));
}

function holds(expr: MatchExpression, labels: Readonly<Record<string, string>>): boolean {
  const value = Object.hasOwn(labels, expr.key) ? labels[expr.key] : undefined;
  // A missing label (undefined) is in no list of strings; only In and NotIn carry a list.
  const listed = expr.values?.includes(value as string) === true;
  switch (expr.operator) {
    case "In":
      return listed;
    case "NotIn":
      return !listed;
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
  }
}

/** The feed of the first rule that fits the asset, or undefined when none does (the asset stays unpriced). */
export function findFeed(rules: readonly AssetFeedRule[], asset: string, labels: Readonly<Record<string, string>>): FeedSelector | undefined {
  return rules.find((rule) => matches(rule.match, asset, labels))?.config.priceFeed;
}

/** True when any rule matches on labels (so labels must be loaded before choosing a feed). */
export function needsLabels(rules: readonly AssetFeedRule[]): boolean {
  return rules.some((rule) => rule.match.key === undefined);
}

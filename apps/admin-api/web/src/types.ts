// Names for the admin API's wire shapes the dashboard reads, all taken from the types generated from docs/api/admin.openapi.yaml.
import type { components, paths } from "./generated/admin-api";

type Schemas = components["schemas"];

type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type Success<R> = R extends { 200: infer Ok } ? Ok : R extends { 201: infer Created } ? Created : R extends { 202: infer Accepted } ? Accepted : never;

/** The JSON body of the success answer (200, 201 or 202) of one operation: `Answer<"/api/campaigns", "get">`. */
export type Answer<P extends keyof paths, M extends "get" | "post" | "put" | "patch" | "delete"> = paths[P][M] extends { responses: infer R }
  ? JsonOf<Success<R>>
  : never;

/** A campaign as the admin API answers it. */
export type Campaign = Schemas["Campaign"];

/** The signed-in operator, their project and the dashboard settings. */
export type Me = Schemas["Me"];

/** An operator of the project. */
export type Operator = Schemas["Operator"];

/** An API key as listed (the key itself is only in the answer that created it). */
export type ApiKey = Schemas["ApiKey"];

/** A newly created API key, with the key itself. */
export type CreatedApiKey = Answer<"/api/campaigns/{campaign_id}/api-keys", "post">;

/** A registered event type. */
export type EventType = Schemas["EventType"];

/** A background recompute of a campaign's scores. */
export type RecomputeJob = Schemas["RecomputeJob"];

/** A rule version without its document. */
export type RuleVersion = Schemas["RuleVersion"];

/** A rule version with its document. */
export type RuleVersionWithDocument = Schemas["RuleVersionWithDocument"];

/** One problem of a rule document: where and which rule it breaks. */
export type RuleIssue = Schemas["RuleIssue"];

/** How operators recognise a user. */
export type UserLabel = Schemas["UserLabel"];

/** The leaderboard diff of a rule version against the active one. */
export type DryRun = Schemas["DryRun"];

/** A user's standing in one currency (decimals as strings). */
export type Score = Schemas["Score"];

/** A user with identities, referral link and scores. */
export type User = Schemas["User"];

/** One award in a user's ledger, with its event and lineage. */
export type LedgerEntry = Schemas["Ledger"]["entries"][number];

/**
 * The parts of a ledger entry's lineage the dashboard shows. The document leaves lineage free-form
 * (the engine's record, docs/rules.md), so this is a reading of it, every part optional.
 */
export interface Lineage {
  multipliers?: { kind: string; factor: string; source: string }[];
  cappedBy?: string[];
  basePoints?: string;
}

/** The operator's leaderboard preview. */
export type Leaderboard = Schemas["LeaderboardPreview"];

/** Running points totals of the top users per time bucket. */
export type Chart = Schemas["Chart"];

/** One bad row of a CSV upload. */
export type CsvRowError = Schemas["CsvRowError"];

/** A CSV import and its progress. */
export type CsvImport = Schemas["CsvImport"];

/** An identity type of the document's `IdentityType`. */
export type IdentityType = Schemas["IdentityType"];

// `satisfies Record<IdentityType, true>` fails to compile when the document adds or drops a type.
const identityTypes = {
  EVM_ADDRESS: true,
  SOLANA_ADDRESS: true,
  BTC_ADDRESS: true,
  EMAIL: true,
  DISCORD_PROVIDER_ID: true,
  X_PROVIDER_ID: true,
  GITHUB_PROVIDER_ID: true,
} as const satisfies Record<IdentityType, true>;

/** The identity types an event may target, in the document's order. */
export const IDENTITY_TYPES = Object.keys(identityTypes) as IdentityType[];

/** An exclusion of an identity or a user (campaign or project scope). */
export type Exclusion = Schemas["Exclusion"];

/** An operator adjustment: a grant, a deduction or a reversal. */
export type Adjustment = Schemas["Adjustment"];

/** One entry of the audit trail. */
export type AuditEntry = Schemas["AuditEntry"];

/** A bad row of a list upload (exclusions, adjustments). */
export type ListRowError = Schemas["ListRowError"];

/** A reward of the catalogue. */
export type Reward = Schemas["Reward"];

/** A redemption with its lineage. */
export type Redemption = Schemas["Redemption"];

/** A token-claim epoch. */
export type ClaimEpoch = Schemas["ClaimEpoch"];

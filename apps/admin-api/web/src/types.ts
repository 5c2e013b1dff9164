// Wire shapes of the admin API the dashboard reads (see docs/api/admin.openapi.yaml).

/** A campaign as the admin API answers it. */
export interface Campaign {
  id: string;
  name: string;
  currencies: Record<string, string>;
  primary_currency: string;
  starts_at: string | null;
  ends_at: string | null;
  archived_at: string | null;
  bad_words: string[];
  created_at: string;
}

/** The signed-in operator, their project and the dashboard settings. */
export interface Me {
  operator: { id: string; email: string };
  project: { id: string; name: string };
  settings: { ingest_public_url: string; read_api_url: string };
}

/** An API key (the key itself only right after it was created). */
export interface ApiKey {
  id: string;
  prefix: string;
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  key?: string;
}

/** A registered event type. */
export interface EventType {
  reg_event_id: string;
  name: string;
  description: string | null;
  created_at: string;
  retired_at: string | null;
}

/** A background recompute of a campaign's scores. */
export interface RecomputeJob {
  id: string;
  rule_version: number;
  reason: string;
  status: "queued" | "running" | "done" | "failed";
  events_total: number;
  events_done: number;
  progress: number;
  error: string | null;
  created_at: string;
}

/** A rule version, with its document when asked for one. */
export interface RuleVersion {
  version: number;
  status: "draft" | "active" | "superseded";
  created_at: string;
  activated_at: string | null;
  rule_count: number;
  activation_job: RecomputeJob | null;
  document?: Record<string, unknown>;
}

/** One problem of a rule document: where and which rule it breaks. */
export interface RuleIssue {
  path: string;
  message: string;
}

/** How operators recognise a user. */
export interface UserLabel {
  display_name: string | null;
  identity: { identity_type: string; account_id: string; handle: string | null } | null;
}

/** The leaderboard diff of a rule version against the active one. */
export interface DryRun {
  currency: string;
  at: string;
  before_version: number | null;
  after_version: number;
  events: number;
  users_before: number;
  users_after: number;
  unchanged: number;
  moves_total: number;
  moves: (UserLabel & {
    user_id: string;
    rank_before: number | null;
    rank_after: number | null;
    rank_change: number | null;
    points_before: string;
    points_after: string;
    points_change: string;
  })[];
}

/** A user's standing in one currency (decimals as strings). */
export interface Score {
  currency: string;
  score: string;
  referral_score: string;
  total: string;
  lifetime: string;
  tier: string | null;
}

/** One identity of a user. */
export interface Identity {
  id: string;
  identity_type: string;
  account_id: string;
  handle: string | null;
  created_at: string;
}

/** A user with identities, referral link and scores. */
export interface User {
  id: string;
  display_name: string | null;
  referrer_id: string | null;
  referred_at: string | null;
  created_at: string;
  identities: Identity[];
  scores: Score[];
}

/** One award in a user's ledger, with its event and lineage. */
export interface LedgerEntry {
  id: string;
  rule_version: number;
  rule_id: string;
  kind: string;
  currency: string;
  points: string;
  capped_points: string;
  paid: string;
  lineage: { multipliers?: { kind: string; factor: string; source: string }[]; cappedBy?: string[]; basePoints?: string } & Record<string, unknown>;
  created_at: string;
  event: {
    id: string;
    reg_event_id?: string;
    event_type?: string | null;
    amount?: string;
    identity_type?: string;
    account_id?: string;
    source?: string;
    received_at?: string;
  };
}

/** The operator's leaderboard preview. */
export interface Leaderboard {
  currency: string;
  currency_names: Record<string, string>;
  rule_version: number | null;
  entries: (UserLabel & { rank: number; user_id: string; scores: Record<string, Score> })[];
}

/** Running points totals of the top users per time bucket. */
export interface Chart {
  bucket: "hour" | "day";
  buckets: string[];
  series: (UserLabel & { user_id: string; values: string[] })[];
}

/** One bad row of a CSV upload. */
export interface CsvRowError {
  line: number;
  errors: { message: string; extensions: { code: string } }[];
}

/** A CSV import and its progress. */
export interface CsvImport {
  import_id: string;
  mode: string;
  origin: string;
  file_name: string | null;
  status: "validating" | "publishing" | "done" | "rejected" | "failed";
  rows_read: number;
  rows_valid: number;
  rows_invalid: number;
  rows_published: number;
  sample_errors: CsvRowError[];
  error: string | null;
  created_at: string;
}

/** The identity types an event may target. */
export const IDENTITY_TYPES = ["EVM_ADDRESS", "SOLANA_ADDRESS", "BTC_ADDRESS", "EMAIL", "DISCORD_PROVIDER_ID", "X_PROVIDER_ID", "GITHUB_PROVIDER_ID"] as const;

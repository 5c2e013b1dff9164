/**
 * Rows a test starts from, written with Prisma the way admin-api would leave them: a project, a
 * campaign, its API keys and event types, rule versions, users, identities, score rows, rewards and redemptions.
 */
import { randomUUID } from "node:crypto";
import { generateApiKey } from "@pointwise/auth";
import type { Database } from "@pointwise/db";
import { addFixed, parseFixed } from "@pointwise/fixed";

/** What seeding needs of a database: its Prisma client. */
export type SeedDb = Pick<Database, "prisma">;

let campaignCounter = 0;

/** A fresh campaign id of the form xxxx-nnnn. */
export function newCampaignId(): string {
  campaignCounter += 1;
  return `${Math.random().toString(36).slice(2, 6).padEnd(4, "0")}-${String(campaignCounter).padStart(4, "0")}`;
}

/** Creates a project (or keeps the one with this id when it exists); returns its id. */
export async function seedProject(db: SeedDb, options: { id?: string; name?: string } = {}): Promise<string> {
  const name = options.name ?? "Test project";
  if (options.id === undefined) return (await db.prisma.project.create({ data: { name } })).id;
  await db.prisma.project.upsert({ where: { id: options.id }, create: { id: options.id, name }, update: {} });
  return options.id;
}

/** How a seeded campaign looks; every field has a default. */
export interface SeedCampaignOptions {
  id?: string;
  /** The owning project; a new one is created when absent. */
  projectId?: string;
  name?: string;
  /** Currency key to display name; `{ xp: "Experience", gems: "Gems" }` by default. */
  currencies?: Record<string, string>;
  /** The primary currency; the first key of `currencies` by default. */
  primary?: string;
  badWords?: string[];
  archived?: boolean;
}

/** Creates a campaign (and a project for it unless one is given); returns the campaign id. */
export async function seedCampaign(db: SeedDb, options: SeedCampaignOptions = {}): Promise<string> {
  const id = options.id ?? newCampaignId();
  const currencies = options.currencies ?? { xp: "Experience", gems: "Gems" };
  const projectId = options.projectId ?? (await seedProject(db));
  await db.prisma.campaign.create({
    data: {
      id,
      projectId,
      name: options.name ?? "Season",
      currencies,
      primaryCurrency: options.primary ?? (Object.keys(currencies)[0] as string),
      badWords: options.badWords ?? [],
      archivedAt: options.archived ? new Date() : null,
    },
  });
  return id;
}

/** A seeded API key: the secret a client sends, its row id and its stored prefix. */
export interface SeededApiKey {
  key: string;
  id: string;
  prefix: string;
}

/** Creates an API key of a campaign (revoked now with `revoked`). */
export async function seedApiKey(db: SeedDb, campaignId: string, options: { revoked?: boolean } = {}): Promise<SeededApiKey> {
  const key = generateApiKey();
  const row = await db.prisma.apiKey.create({
    data: { campaignId, prefix: key.prefix, hash: key.hash, revokedAt: options.revoked ? new Date() : null },
  });
  return { key: key.key, id: row.id, prefix: key.prefix };
}

/**
 * Creates an event type of a campaign (retired now with `retired`); returns its id, the events'
 * reg_event_id. With a fixed `id` that already exists, the existing row is kept.
 */
export async function seedEventType(db: SeedDb, campaignId: string, options: { id?: string; name?: string; retired?: boolean } = {}): Promise<string> {
  const data = { campaignId, name: options.name ?? "e", retiredAt: options.retired ? new Date() : null };
  if (options.id === undefined) return (await db.prisma.eventType.create({ data })).id;
  await db.prisma.eventType.upsert({ where: { id: options.id }, create: { id: options.id, ...data }, update: {} });
  return options.id;
}

/** A campaign with one API key and one event type, what a test of ingesting needs. */
export interface SeededCampaign {
  campaignId: string;
  key: string;
  keyId: string;
  prefix: string;
  regEventId: string;
}

/** Creates a campaign (see `seedCampaign`), an API key and an event type (`eventType` names it). */
export async function seedCampaignWithKey(db: SeedDb, options: SeedCampaignOptions & { eventType?: string } = {}): Promise<SeededCampaign> {
  const { eventType, ...campaign } = options;
  const campaignId = await seedCampaign(db, { currencies: { xp: "XP" }, name: "c", ...campaign });
  const key = await seedApiKey(db, campaignId);
  const regEventId = await seedEventType(db, campaignId, { name: eventType ?? "e" });
  return { campaignId, key: key.key, keyId: key.id, prefix: key.prefix, regEventId };
}

/** Stores a rule document as version `version` (1) of a campaign, in force right away unless `status` says "draft". */
export async function seedRuleVersion(
  db: SeedDb,
  campaignId: string,
  document: unknown,
  options: { version?: number; status?: "draft" | "active" } = {},
): Promise<void> {
  const status = options.status ?? "active";
  await db.prisma.ruleVersion.create({
    data: {
      campaignId,
      version: options.version ?? 1,
      // A JSON round trip gives Prisma plain JSON, whatever object the test built the document from.
      document: JSON.parse(JSON.stringify(document)),
      status,
      activatedAt: status === "active" ? new Date() : null,
    },
  });
}

/** Creates a user of a campaign, referred by `referrerId` from now on when given; returns its id. */
export async function seedUser(
  db: SeedDb,
  campaignId: string,
  options: { id?: string; displayName?: string | null; secretSeed?: string; referrerId?: string | null } = {},
): Promise<string> {
  const row = await db.prisma.user.create({
    data: {
      ...(options.id ? { id: options.id } : {}),
      campaignId,
      displayName: options.displayName ?? null,
      ...(options.secretSeed ? { secretSeed: options.secretSeed } : {}),
      ...(options.referrerId ? { referrerId: options.referrerId, referredAt: new Date() } : {}),
    },
  });
  return row.id;
}

/** Links an identity (type and account id, with an optional public handle) to a user. */
export async function seedIdentity(
  db: SeedDb,
  campaignId: string,
  userId: string,
  identityType: string,
  accountId: string,
  handle: string | null = null,
): Promise<void> {
  await db.prisma.identity.create({ data: { campaignId, userId, identityType, accountId, handle } });
}

/** A score row's values in their stored (decay-scaled) form, plain decimal strings. */
export interface SeedScoreValues {
  score: string;
  referral?: string;
  /** As `score` when absent. */
  lifetime?: string;
  tier?: string | null;
  /** ISO time the total was reached; now when absent. */
  reachedAt?: string;
}

/** Writes (or overwrites) a user's score row in one currency; total = score + referral, exactly. */
export async function seedScore(db: SeedDb, campaignId: string, userId: string, currency: string, values: SeedScoreValues): Promise<void> {
  const referral = values.referral ?? "0";
  const row = {
    score: values.score,
    referralScore: referral,
    total: addFixed(parseFixed(values.score), parseFixed(referral)).toString(),
    lifetime: values.lifetime ?? values.score,
    tier: values.tier ?? null,
    reachedAt: values.reachedAt ? new Date(values.reachedAt) : new Date(),
  };
  await db.prisma.score.upsert({
    where: { campaignId_userId_currency: { campaignId, userId, currency } },
    create: { campaignId, userId, currency, ...row },
    update: row,
  });
}

/** What a seeded reward holds beyond its campaign; each has a default. */
export interface SeedRewardOptions {
  /** Default "Hoodie". */
  name?: string;
  /** Default "manual". */
  kind?: string;
  /** Default "xp". */
  currency?: string;
  /** The price in `currency` (default "10"). */
  price?: string;
  /** Codes or units left (default: no limit). */
  stock?: number | null;
  /** How many times one user may redeem it (default: no limit). */
  perUserLimit?: number | null;
  /** The window it can be redeemed in (default: always). */
  redeemableFrom?: Date | null;
  redeemableUntil?: Date | null;
  /** Token base units a token-claim earns (default "1000" for one, none for the other kinds). */
  tokenAmount?: string | null;
  /** "active" (the default) or "archived". */
  status?: string;
}

/** A reward of a campaign as admin-api's POST /rewards writes it (a manual one in xp by default); returns its id. */
export async function seedReward(db: SeedDb, campaignId: string, options: SeedRewardOptions = {}): Promise<string> {
  const kind = options.kind ?? "manual";
  const row = await db.prisma.reward.create({
    data: {
      campaignId,
      name: options.name ?? "Hoodie",
      kind,
      currency: options.currency ?? "xp",
      price: options.price ?? "10",
      stock: options.stock ?? null,
      perUserLimit: options.perUserLimit ?? null,
      redeemableFrom: options.redeemableFrom ?? null,
      redeemableUntil: options.redeemableUntil ?? null,
      tokenAmount: options.tokenAmount ?? (kind === "token-claim" ? "1000" : null),
      status: options.status ?? "active",
    },
    select: { id: true },
  });
  return row.id;
}

/** What a seeded redemption holds beyond its campaign, user and reward; each has a default. */
export interface SeedRedemptionOptions {
  /** The price in `currency` (default "10"). */
  price?: string;
  /** The balance before it (default: the price); the balance after is before minus price, as the table requires. */
  balanceBefore?: string;
  /** Default "pending". */
  status?: string;
  /** The reward's kind (default "manual"). */
  kind?: string;
  /** Default "xp". */
  currency?: string;
  /** Default a random UUID. */
  idempotencyKey?: string;
  /** A token claim's account, token amount and epoch. */
  account?: string;
  tokenAmount?: string;
  claimEpochId?: bigint;
}

/** A redemption as portal-api writes it (channel portal), without touching score rows or stock; returns its id. */
export async function seedRedemption(db: SeedDb, campaignId: string, userId: string, rewardId: string, options: SeedRedemptionOptions = {}): Promise<string> {
  const price = options.price ?? "10";
  const before = options.balanceBefore ?? price;
  const row = await db.prisma.redemption.create({
    data: {
      campaignId,
      rewardId,
      userId,
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      requestHash: "h",
      channel: "portal",
      kind: options.kind ?? "manual",
      currency: options.currency ?? "xp",
      price,
      balanceBefore: before,
      balanceAfter: addFixed(parseFixed(before), parseFixed(`-${price}`)).toString(),
      status: options.status ?? "pending",
      account: options.account ?? null,
      tokenAmount: options.tokenAmount ?? null,
      claimEpochId: options.claimEpochId ?? null,
    },
    select: { id: true },
  });
  return row.id;
}

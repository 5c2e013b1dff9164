// The zod schema of `.pointwise.json`: network, range, adapter, pricing feeds, sinks and earn mappings.
import { envVars } from "@pointwise/config";
import { CAMPAIGN_ID_PATTERN } from "@pointwise/schemas";
import { z } from "zod";
import { addressProblem, NOT_AN_ADDRESS } from "./address";
import { CHAINS, findChain } from "./chains";
import { httpUrlProblem, redisUrlProblem } from "./urls";

/** The smallest allowed flush interval: one hour. */
export const MIN_FLUSH_MS = 3_600_000;
/** Confirmations waited for when `network.finality` is omitted. */
export const DEFAULT_FINALITY = 75;
/** The most events one request to the Pointwise ingest API may carry. */
export const MAX_EARN_BATCH = 1000;
/** The most confirmations `network.finality` may ask for: about 14 days of Ethereum blocks, 7 hours of Arbitrum's. */
export const MAX_FINALITY = 100_000;
/** How deep feed selectors may nest (a selector alone is one level); pricing follows each level at every point. */
export const MAX_FEED_DEPTH = 8;

/** A zod `error` option that says "is required" for a missing value and `fragment` for a wrong one. */
function req(fragment: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : fragment) };
}

/** A string that is not only whitespace (an empty one breaks the field's `must not be empty` rule instead). */
const notBlank = (v: string) => v === "" || v.trim() !== "";

/** A string that `problem` checks: it names the rule the value breaks, never the value (a URL may hold a password). */
const checkedString = (problem: (value: string) => string | undefined) => z.string(req("must be a string")).pipe(envVars.checked(problem));

/**
 * A whole number from `min` to `max` (at most 2^53 - 1, past which a number no longer names one integer), each
 * bound with its message; an infinite number (1e400 in JSON) breaks the bound it is past. Not the environment's
 * whole number (@pointwise/config): a JSON number is not coerced from text, and its bounds have the config's words.
 */
function integer(min: number, minRule: string, max = Number.MAX_SAFE_INTEGER, maxRule = `must be at most ${max}`) {
  return z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? "is required"
          : issue.input === Number.POSITIVE_INFINITY
            ? maxRule
            : issue.input === Number.NEGATIVE_INFINITY
              ? minRule
              : "must be a number",
    })
    .refine(Number.isInteger, "must be an integer")
    .min(min, minRule)
    .max(max, maxRule);
}

const httpUrl = checkedString((v) => httpUrlProblem(v));
// The pointwise sink's requests go through fetch, which cannot send a user name or password: its key is POINTWISE_API_KEY.
const ingestUrl = checkedString((v) => httpUrlProblem(v, "POINTWISE_API_KEY"));

/**
 * An EVM address in one case, or in mixed case with a valid EIP-55 checksum, returned lowercased; the config and
 * every adapter's params check addresses with it.
 */
export const evmAddress = checkedString(addressProblem).transform((v) => v.toLowerCase());

const blockNumber = integer(0, "must not be negative");

/**
 * How an asset is priced in USD: a market id, a fixed peg, the net asset value of a constant-product pool's LP
 * token, the value per unit of liquidity of a concentrated-liquidity position, a vault share through its underlying
 * asset, or the net asset value of a Balancer V2 pool token.
 */
export type FeedSelector =
  | { kind: "market"; id: string }
  | { kind: "pegged"; usdPegValue: number }
  | { kind: "ammv2nav"; token0: FeedSelector; token1: FeedSelector }
  | { kind: "ammv3position"; token0: FeedSelector; token1: FeedSelector }
  | { kind: "vaultshare"; version: "v1" | "v2"; underlying: FeedSelector }
  | { kind: "balancerv2nav"; tokens: Record<string, FeedSelector> };

/** Feed selector kinds this engine can price. */
export const FEED_KINDS = ["market", "pegged", "ammv2nav", "ammv3position", "vaultshare", "balancerv2nav"] as const;

/** Whether a feed selector, or any selector nested in it, prices through the market price API (needs its client). */
export function usesMarketFeed(feed: FeedSelector): boolean {
  switch (feed.kind) {
    case "market":
      return true;
    case "pegged":
      return false;
    case "ammv2nav":
    case "ammv3position":
      return usesMarketFeed(feed.token0) || usesMarketFeed(feed.token1);
    case "vaultshare":
      return usesMarketFeed(feed.underlying);
    case "balancerv2nav":
      return Object.values(feed.tokens).some(usesMarketFeed);
  }
}

/**
 * How many levels of feed selectors `value` nests (a selector alone: 1), counted without recursion, so input nested
 * thousands of levels deep is measured rather than overflowing the stack; counting stops past `limit`.
 */
export function feedDepth(value: unknown, limit = MAX_FEED_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    const { token0, token1, underlying, tokens } = node as Record<string, unknown>;
    const children = [token0, token1, underlying, ...(typeof tokens === "object" && tokens !== null ? Object.values(tokens) : [])];
    for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}

const feedSelector: z.ZodType<FeedSelector> = z.lazy(() =>
  z.discriminatedUnion(
    "kind",
    [
      z.object({ kind: z.literal("market"), id: z.string(req("must be a string")).min(1, "must not be empty").refine(notBlank, "must not be blank") }).strict(),
      z
        .object({
          kind: z.literal("pegged"),
          // z.number() already refuses Infinity and NaN.
          usdPegValue: z.number(req("must be a number")).nonnegative("must not be negative"),
        })
        .strict(),
      z.object({ kind: z.literal("ammv2nav"), token0: feedSelector, token1: feedSelector }).strict(),
      z.object({ kind: z.literal("ammv3position"), token0: feedSelector, token1: feedSelector }).strict(),
      z
        .object({
          kind: z.literal("vaultshare"),
          version: z.enum(["v1", "v2"], req("must be one of v1, v2 (v2: ERC-4626 convertToAssets, v1: pricePerShare())")),
          underlying: feedSelector,
        })
        .strict(),
      z
        .object({
          kind: z.literal("balancerv2nav"),
          // Keyed by token address: a selector bound to its token cannot be applied to another by a mistaken order.
          tokens: z.record(z.string(), feedSelector, req("must be an object of feed selectors keyed by token address")).superRefine((tokens, ctx) => {
            const keys = Object.keys(tokens);
            if (keys.length < 2) ctx.addIssue({ code: "custom", message: "must name at least two tokens" });
            for (const key of keys) {
              const problem = addressProblem(key);
              if (problem === NOT_AN_ADDRESS)
                ctx.addIssue({ code: "custom", path: [key], message: "must be keyed by a 0x-prefixed 20-byte hex token address" });
              else if (problem !== undefined) ctx.addIssue({ code: "custom", path: [key], message: problem });
            }
            // Stryker disable next-line MethodExpression: equivalent, upper case finds the same repeats as lower case
            const lower = keys.map((k) => k.toLowerCase());
            if (new Set(lower).size !== lower.length) ctx.addIssue({ code: "custom", message: "must name each token once (addresses compare in any case)" });
          }),
        })
        .strict(),
    ],
    req(`must be one of ${FEED_KINDS.join(", ")}`),
  ),
);

/** Operators of a label expression, as in Kubernetes label selectors. */
export const MATCH_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

const matchExpression = z
  .object({
    key: z.string(req("must be a string")).min(1, "must not be empty"),
    operator: z.enum(MATCH_OPERATORS, req(`must be one of ${MATCH_OPERATORS.join(", ")}`)),
    values: z.array(z.string("must be a string"), "must be an array of strings").optional(),
  })
  .strict()
  .superRefine((expr, ctx) => {
    const needsValues = expr.operator === "In" || expr.operator === "NotIn";
    if (needsValues && (expr.values === undefined || expr.values.length === 0))
      ctx.addIssue({ code: "custom", path: ["values"], message: `must list at least one value for operator ${expr.operator}` });
    if (!needsValues && expr.values !== undefined && expr.values.length > 0)
      ctx.addIssue({ code: "custom", path: ["values"], message: `must be empty for operator ${expr.operator}` });
  });

/** One label expression of an asset feed rule. */
export type MatchExpression = z.output<typeof matchExpression>;

const assetMatch = z
  .object(
    {
      key: evmAddress.optional(),
      matchLabels: z.record(z.string(), z.string("must be a string"), "must be an object of label values").optional(),
      matchExpressions: z.array(matchExpression, "must be an array").min(1, "must not be empty").optional(),
    },
    req("must be an object"),
  )
  .strict()
  .refine((m) => [m.key, m.matchLabels, m.matchExpressions].filter((x) => x !== undefined).length === 1, {
    message: "must have exactly one of key, matchLabels or matchExpressions",
  });

/** Which assets a feed rule applies to: one address, a set of labels, or label expressions. */
export type AssetMatch = z.output<typeof assetMatch>;

/** Asset kinds a feed rule may declare. */
export const ASSET_TYPES = ["erc20", "erc721", "spl"] as const;

const assetFeedRule = z
  .object(
    {
      match: assetMatch,
      config: z
        .object(
          {
            assetType: z.enum(ASSET_TYPES, req(`must be one of ${ASSET_TYPES.join(", ")}`)),
            // Measured before it is parsed: the parser recurses once per level.
            priceFeed: z
              .unknown()
              .refine((v) => feedDepth(v) <= MAX_FEED_DEPTH, `must not nest feed selectors more than ${MAX_FEED_DEPTH} levels deep`)
              .pipe(feedSelector),
          },
          req("must be an object"),
        )
        .strict(),
    },
    req("must be an object"),
  )
  .strict();

/** One pricing rule: the first rule whose match fits an asset decides its feed. */
export type AssetFeedRule = z.output<typeof assetFeedRule>;

/** What an earn event's amount is taken from: USD value, USD x hours, token amount, token amount x hours, or 1 per row. */
export const EARN_AMOUNTS = ["usd", "usdHours", "amount", "amountHours", "count"] as const;
/** Row kinds a sink writes. */
export const ROW_TYPES = ["window", "action"] as const;

const earnMapping = z
  .object(
    {
      regEventId: z.string(req("must be a string")).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID"),
      amount: z.enum(EARN_AMOUNTS, req(`must be one of ${EARN_AMOUNTS.join(", ")}`)),
      rowType: z.enum(ROW_TYPES, req(`must be one of ${ROW_TYPES.join(", ")}`)).optional(),
    },
    req("must be an object"),
  )
  .strict()
  .transform((m) => ({ ...m, rowType: m.rowType ?? (m.amount === "usdHours" || m.amount === "amountHours" ? "window" : "action") }))
  .superRefine((m, ctx) => {
    if (m.rowType === "action" && (m.amount === "usdHours" || m.amount === "amountHours"))
      ctx.addIssue({ code: "custom", path: ["amount"], message: `${m.amount} applies only to rowType window` });
    if (m.rowType === "window" && m.amount === "count") ctx.addIssue({ code: "custom", path: ["amount"], message: "count applies only to rowType action" });
  });

/** How rows of one activity become earn events of one registered event type. */
export type EarnMapping = z.output<typeof earnMapping>;

const sink = z.discriminatedUnion(
  "sinkType",
  [
    z.object({ sinkType: z.literal("stdout"), json: z.boolean("must be a boolean").default(false) }).strict(),
    z
      .object({ sinkType: z.literal("csv"), path: z.string(req("must be a string")).min(1, "must not be empty").refine(notBlank, "must not be blank") })
      .strict(),
    z
      .object({
        sinkType: z.literal("pointwise"),
        baseUrl: ingestUrl,
        campaignId: z
          .string("must be a string")
          .regex(CAMPAIGN_ID_PATTERN, "must be a campaign id of the form xxxx-xxxx (lowercase letters and digits)")
          .optional(),
        batchSize: integer(1, "must be at least 1", MAX_EARN_BATCH).default(MAX_EARN_BATCH),
        events: z
          .record(z.string().regex(/^[a-z][a-z0-9_-]*$/), earnMapping, {
            // A bad key reaches this error function as an invalid_key issue, not through the key's own message; without
            // this case it would read "events.Swap must be an object" for a mapping that is one.
            error: (issue) =>
              issue.code === "invalid_key"
                ? "must be a lowercase activity name (a letter, then lowercase letters, digits, '_' or '-')"
                : req("must be an object").error(issue),
          })
          .refine((e) => Object.keys(e).length > 0, "must map at least one activity"),
      })
      .strict(),
  ],
  req("must be one of stdout, csv, pointwise"),
);

/** One output destination. */
export type SinkConfig = z.output<typeof sink>;

/** The `.pointwise.json` indexer config, validated and with defaults applied. */
export const indexerConfigSchema = z
  .object(
    {
      kind: z.literal("evm", req('must be "evm" (only evm is supported)')),
      indexerId: z
        .string(req("must be a string"))
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"),
      flushMs: integer(MIN_FLUSH_MS, `must be at least ${MIN_FLUSH_MS}`),
      stateStoreUrl: checkedString(redisUrlProblem),
      network: z
        .object(
          {
            chainId: z
              .number(req("must be a number"))
              // Not .int(): past 2^53 that says "must be an integer" of a number that is one; such an id is simply unsupported.
              .refine(Number.isInteger, "must be an integer")
              .refine((id) => !Number.isInteger(id) || findChain(id) !== undefined, {
                error: (issue) => `must be a supported chain id (got ${String(issue.input)}); supported: ${CHAINS.map((c) => c.id).join(", ")}`,
              }),
            gatewayUrl: httpUrl.optional(),
            rpcUrl: httpUrl.optional(),
            finality: integer(0, "must not be negative", MAX_FINALITY).default(DEFAULT_FINALITY),
          },
          req("must be an object"),
        )
        .strict(),
      range: z
        .object({ fromBlock: blockNumber.optional(), toBlock: blockNumber.optional() }, req("must be an object"))
        .strict()
        .refine((r) => r.toBlock === undefined || r.fromBlock === undefined || r.toBlock >= r.fromBlock, {
          message: "must not be before range.fromBlock",
          path: ["toBlock"],
        }),
      pricingRange: z
        .discriminatedUnion(
          "type",
          [
            z.object({ type: z.literal("block"), fromBlock: blockNumber }).strict(),
            z
              .object({
                type: z.literal("timestamp"),
                fromTimestamp: integer(0, "must not be negative", 99_999_999_999, "must be a Unix timestamp in seconds"),
              })
              .strict(),
          ],
          req("must be block or timestamp"),
        )
        .optional(),
      sinkConfig: z.object({ sinks: z.array(sink, req("must be an array")).min(1, "must have at least one sink") }, req("must be an object")).strict(),
      adapterConfig: z
        .object(
          {
            adapterId: z.string(req("must be a string")).min(1, "must not be empty"),
            params: z.record(z.string(), z.unknown(), "must be an object").default({}),
          },
          req("must be an object"),
        )
        .strict(),
      assetFeedConfig: z.array(assetFeedRule, "must be an array").default([]),
    },
    "must be a JSON object",
  )
  .strict();

/** A validated indexer config. */
export type IndexerConfig = z.output<typeof indexerConfigSchema>;
/** An indexer config as written in the file, before defaults. */
export type IndexerConfigInput = z.input<typeof indexerConfigSchema>;

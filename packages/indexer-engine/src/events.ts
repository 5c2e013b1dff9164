// The events adapters emit (balance, measure, position, reprice, action) and their validation schemas.
import { z } from "zod";
import { isDecimalString } from "./decimal";

/** Where an event happened: normalised from the chain log and its block. `ts` is Unix milliseconds. */
export interface EventContext {
  ts: number;
  height: number;
  txHash: string;
  logIndex: number;
}

/** A change in holdings of a user for an asset; `amount` is an exact decimal in token units, negative for outflow. */
export interface BalanceDelta {
  type: "balanceDelta";
  user: string;
  asset: string;
  amount: string;
  activity: string;
}

/** A change in a metric value of an asset (for example a vault's share price); metrics live in the state store. */
export interface MeasureDelta {
  type: "measureDelta";
  asset: string;
  metric: string;
  amount: string;
}

/** Forces a new time-weighted balance row for a position without a balance change. */
export interface PositionUpdate {
  type: "positionUpdate";
  user: string;
  asset: string;
  activity: string;
}

/** Marks a position active or inactive; windows carry the status they were open with. */
export interface PositionStatusChange {
  type: "positionStatusChange";
  user: string;
  asset: string;
  activity: string;
  active: boolean;
}

/** Asks for a new price sample of an asset now: every open window of the asset is closed and reopened. */
export interface Reprice {
  type: "reprice";
  asset: string;
}

/** The kinds of action the spec names; anything an adapter cannot name otherwise is `custom`. */
export const ACTION_KINDS = ["swap", "mint", "bridge", "claim", "custom"] as const;

/** One of the action kinds. */
export type ActionKind = (typeof ACTION_KINDS)[number];

/** An instantaneous event (swap, mint, bridge, claim, custom); the legs of one action share `key`. */
export interface ActionEvent {
  type: "action";
  key: string;
  /** The action's kind (the spec's Action `type`); another value is refused by validation. */
  activity: ActionKind;
  user: string;
  priceable: boolean;
  amount?: { asset: string; amount: string };
  meta?: Record<string, string>;
}

/** Everything an adapter can emit into the engine. */
export type IndexerEvent = BalanceDelta | MeasureDelta | PositionUpdate | PositionStatusChange | Reprice | ActionEvent;

/** The address whose balance deltas the engine ignores (mints and burns need no filtering in adapters). */
export const NULL_ADDRESS = "0x0000000000000000000000000000000000000000";

const address = z.string().regex(/^0x[0-9a-f]{40}$/, "must be a lowercase 0x-prefixed 20-byte address");
const decimal = z.string().refine(isDecimalString, "must be a decimal string");
const name = z.string().min(1, "must not be empty");

const actionSchema = z
  .object({
    type: z.literal("action"),
    key: name,
    activity: z.enum(ACTION_KINDS, `must be one of ${ACTION_KINDS.join(", ")}`),
    user: address,
    priceable: z.boolean(),
    amount: z.object({ asset: address, amount: decimal }).optional(),
    meta: z.record(z.string(), z.string()).optional(),
  })
  .refine((a) => !a.priceable || a.amount !== undefined, { message: "a priceable action must carry amount.asset and amount.amount", path: ["amount"] });

/** Schemas of every event type, by `type`; invalid items are dropped by enrichment with the reason they give. */
export const eventSchemas = {
  balanceDelta: z.object({ type: z.literal("balanceDelta"), user: address, asset: address, amount: decimal, activity: name }),
  measureDelta: z.object({ type: z.literal("measureDelta"), asset: address, metric: name, amount: decimal }),
  positionUpdate: z.object({ type: z.literal("positionUpdate"), user: address, asset: address, activity: name }),
  positionStatusChange: z.object({ type: z.literal("positionStatusChange"), user: address, asset: address, activity: name, active: z.boolean() }),
  reprice: z.object({ type: z.literal("reprice"), asset: address }),
  action: actionSchema,
} as const;

const ADDRESS = /^0x[0-9a-f]{40}$/;
const isAddress = (v: unknown) => typeof v === "string" && ADDRESS.test(v);
const isName = (v: unknown) => typeof v === "string" && v.length > 0;
const KINDS: ReadonlySet<unknown> = new Set(ACTION_KINDS);
const isDecimal = (v: unknown) => typeof v === "string" && isDecimalString(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isStringRecord(v: unknown): boolean {
  if (!isRecord(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const key of Reflect.ownKeys(v)) if (typeof key !== "string" || typeof v[key] !== "string") return false;
  return true;
}

/**
 * The common case of validation without zod: true only for events the schemas accept. Whatever it cannot vouch
 * for goes to the schemas, which decide and name the reason, so its answers never differ from theirs (a property
 * test holds it to that). Zod builds issue lists and contexts per call, several times the cost of these checks.
 */
function plainlyValid(e: Record<string, unknown>): boolean {
  switch (e.type) {
    case "balanceDelta":
      return isAddress(e.user) && isAddress(e.asset) && isDecimal(e.amount) && isName(e.activity);
    case "action": {
      const amount = e.amount;
      if (amount === undefined ? e.priceable !== false : !(isRecord(amount) && isAddress(amount.asset) && isDecimal(amount.amount))) return false;
      return (
        isName(e.key) && KINDS.has(e.activity) && isAddress(e.user) && typeof e.priceable === "boolean" && (e.meta === undefined || isStringRecord(e.meta))
      );
    }
    case "measureDelta":
      return isAddress(e.asset) && isName(e.metric) && isDecimal(e.amount);
    case "positionUpdate":
      return isAddress(e.user) && isAddress(e.asset) && isName(e.activity);
    case "positionStatusChange":
      return isAddress(e.user) && isAddress(e.asset) && isName(e.activity) && typeof e.active === "boolean";
    case "reprice":
      return isAddress(e.asset);
    // Stryker disable next-line ConditionalExpression: without the default an unknown type falls out of the switch as undefined, also not valid
    default:
      return false;
  }
}

/** Returns why an event is invalid (naming the field and the rule), or undefined when it is valid. */
export function invalidEventReason(event: unknown): string | undefined {
  if (isRecord(event) && plainlyValid(event)) return undefined;
  // A primitive has no own `type`; an array may carry one, and the schema then names the array.
  const type = (event as { type?: unknown } | null | undefined)?.type;
  const schema = typeof type === "string" && Object.hasOwn(eventSchemas, type) ? eventSchemas[type as keyof typeof eventSchemas] : undefined;
  if (schema === undefined) return `type must be one of ${Object.keys(eventSchemas).join(", ")}`;
  const result = schema.safeParse(event);
  if (result.success) return undefined;
  // A failed parse has at least one issue.
  const first = result.error.issues[0] as (typeof result.error.issues)[number];
  // String(): a path may hold a symbol key, which join would throw on.
  return `${type}.${first.path.map(String).join(".")} ${first.message}`;
}

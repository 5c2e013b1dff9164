// The indexer's Redis state: checkpoints, positions, metrics, sink outboxes, asset labels and caches.
import { ConfigError, ConflictError, RetryableError } from "@pointwise/errors";
import { type Logger, scrubUrlCredentials } from "@pointwise/logger";
import { createClient, type RedisClientType } from "redis";
import type { KeyValueStore, LabelStore } from "../adapter";
import { redisUrlProblem } from "../config/urls";
import { Lru } from "../util/lru";
import type { Position } from "../windows";
import { redisOutbox, type SinkOutbox } from "./outbox";

/** Where the indexer's state lives in Redis. */
export interface StateStoreOptions {
  url: string;
  /** First segment of every key, so several deployments can share one Redis. */
  keyPrefix: string;
  indexerId: string;
  configHash: string;
  /** How a refused or lost connection is retried; DEFAULT_RECONNECT when absent. */
  reconnect?: ReconnectPolicy;
}

/**
 * How the store retries a connection Redis refuses or drops: retry n (counted from 0) waits n * stepMs, at most
 * maxDelayMs, and after `retries` retries the connection fails.
 */
export interface ReconnectPolicy {
  retries: number;
  stepMs: number;
  maxDelayMs: number;
}

/** 21 retries, the first at once, each 0.2 s later than the one before up to 2 s: about 31 s before giving up. */
export const DEFAULT_RECONNECT: ReconnectPolicy = { retries: 21, stepMs: 200, maxDelayMs: 2_000 };

/** The wait before retry `retry` (counted from 0) of a connection, or false when the policy's retries are used up. */
export function reconnectDelay(retry: number, policy: ReconnectPolicy): number | false {
  return retry >= policy.retries ? false : Math.min(retry * policy.stepMs, policy.maxDelayMs);
}

/** The last block an index has indexed: its number, its timestamp (Unix ms) and the hash the node gave it. */
export interface IndexedBlock {
  block: number;
  ts: number;
  /**
   * The hash the node must still give this block when the next range is read, or the chain was reorganised under the
   * index. Absent before the first range of a new index, and in checkpoints written before it was kept: the next range
   * then goes unchecked once, and its commit keeps one.
   */
  hash?: string;
}

/** The committed progress of an indexer: everything below `nextBlock` is indexed and written to every sink. */
export interface Checkpoint {
  /** The first block of the run (resolved once when the config omits it). */
  fromBlock: number;
  nextBlock: number;
  /** The last indexed block, its timestamp and hash; flush boundaries after it are still pending. */
  prev: IndexedBlock;
  /** Each sink's position (file offset, outbox sequence) matching this checkpoint. */
  sinks: Record<string, string>;
  rowsWritten: number;
  /**
   * A random id made when this index started from no checkpoint. A state store cleared and started again is another
   * index, whose requests must not reuse an earlier one's Idempotency-Keys (the ingest API refuses a key reused with
   * another body). Absent in checkpoints written before it existed, whose keys stay as they were.
   */
  indexId?: string;
}

/** Everything one batch changes, committed atomically. */
export interface Commit {
  positions: readonly Position[];
  metrics: ReadonlyMap<string, string>;
  checkpoint: Checkpoint;
}

/** The stable code of the error refusing to change a label an asset already has. */
export const LABEL_IMMUTABLE = "label-immutable";

// Compares and writes in one script, so two configs of one indexer starting at once cannot both "win" a label, and a
// refused call writes none of its labels. Returns [label, stored, refused, ...] for every conflict.
const SET_LABELS_SCRIPT = `
local conflicts = {}
for i = 1, #ARGV, 2 do
  local stored = redis.call('HGET', KEYS[1], ARGV[i])
  if stored and stored ~= ARGV[i + 1] then
    table.insert(conflicts, ARGV[i])
    table.insert(conflicts, stored)
    table.insert(conflicts, ARGV[i + 1])
  end
end
if #conflicts == 0 then
  for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return conflicts`;

/** The error for labels an asset already has with other values; the message names asset, label, old and new value. */
function labelConflict(asset: string, conflicts: readonly { label: string; stored: string; refused: string }[]): ConflictError {
  const each = conflicts.map((c) => `label ${c.label} of asset ${asset} is immutable: it is ${c.stored}, refusing to change it to ${c.refused}`);
  return new ConflictError(LABEL_IMMUTABLE, each.join("; "), { details: { asset, conflicts } });
}

/** The hash field of a position: user, asset and activity, which identify it. */
function positionField(p: Position): string {
  return `${p.user}|${p.asset}|${p.activity}`;
}

/**
 * The stored value of a position: its JSON without the user, asset and activity its field already names, when the
 * field can be split back into them (no '|' in user or asset); a flush rewrites every open position, so these bytes
 * are most of what a commit sends to Redis. A value that still names them (written otherwise, or earlier) is read as is.
 */
function positionValue(p: Position): string {
  if (p.user.includes("|") || p.asset.includes("|")) return JSON.stringify(p);
  // A literal of the remaining fields, not a rest spread: V8 builds a rest object key by key on its slow path, which
  // cost more than the JSON itself. An absent openSince is left out by JSON.stringify, as the spread left it out.
  return JSON.stringify({ balance: p.balance, active: p.active, openSince: p.openSince });
}

/** A stored position back from its field and value (positionValue); a value that names user, asset and activity wins. */
function parsePosition(field: string, value: string): Position {
  const stored = JSON.parse(value) as Partial<Position>;
  const first = field.indexOf("|");
  const second = field.indexOf("|", first + 1);
  return { user: field.slice(0, first), asset: field.slice(first + 1, second), activity: field.slice(second + 1), ...stored } as Position;
}

/**
 * The indexer's state on Redis. Keys are namespaced by indexerId; state that depends on the config (checkpoint,
 * positions, metrics, sink outboxes) also by the config hash, while immutable chain facts (labels, adapter caches)
 * are shared by every config of the indexer.
 */
export class StateStore {
  private constructor(
    private readonly client: RedisClientType,
    readonly options: StateStoreOptions,
  ) {}

  /**
   * Connects to Redis; an unreachable store is a retryable failure naming the (redacted) URL, a URL the client cannot
   * use a ConfigError naming the rule, and neither error carries the client's own, which quotes the whole URL.
   */
  static async connect(options: StateStoreOptions, logger: Logger): Promise<StateStore> {
    const policy = options.reconnect ?? DEFAULT_RECONNECT;
    // The config's own check, again for callers that connect without a parsed config: it makes the client's own
    // checks, whose TypeError would hold the URL, password included.
    const problem = redisUrlProblem(options.url);
    if (problem !== undefined) throw new ConfigError(`stateStoreUrl ${problem}`);
    const client: RedisClientType = createClient({
      url: options.url,
      socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => reconnectDelay(retries, policy) },
    });
    client.on("error", (err: Error) => logger.warn({ err: err.message }, "state store connection error"));
    try {
      await client.connect();
    } catch (err) {
      throw new RetryableError("state-store-unavailable", `State store unreachable at ${scrubUrlCredentials(options.url)}`, { cause: err });
    }
    return new StateStore(client, options);
  }

  /** Key in the indexer's namespace (shared by its configs). */
  indexerKey(...parts: string[]): string {
    return [this.options.keyPrefix, "idx", this.options.indexerId, ...parts].join(":");
  }

  /** Key in the namespace of this config of the indexer. */
  key(...parts: string[]): string {
    return this.indexerKey(this.options.configHash, ...parts);
  }

  /** The committed checkpoint, if the indexer ran before with this config. */
  async loadCheckpoint(): Promise<Checkpoint | undefined> {
    const raw = await this.client.get(this.key("checkpoint"));
    return raw === null ? undefined : (JSON.parse(raw) as Checkpoint);
  }

  /** Every stored position. */
  async loadPositions(): Promise<Position[]> {
    const raw = await this.client.hGetAll(this.key("positions"));
    return Object.entries(raw).map(([field, value]) => parsePosition(field, value));
  }

  /** Every stored metric value, keyed `asset|metric`. */
  async loadMetrics(): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.client.hGetAll(this.key("metrics"))));
  }

  /** Writes a batch's state changes and the new checkpoint in one MULTI, so a crash leaves either all or none. */
  async commit(commit: Commit): Promise<void> {
    const multi = this.client.multi();
    const positionsKey = this.key("positions");
    // One HSET and one HDEL for all positions: a flush dirties every open position, and a command per position cost
    // more in the client than the rest of the commit. A field named twice keeps its last state, as in sequence.
    const fields = new Map<string, string | undefined>();
    for (const p of commit.positions) {
      // A position with nothing held, no open window and the default status carries no information.
      fields.set(positionField(p), p.balance === "0" && p.openSince === undefined && p.active ? undefined : positionValue(p));
    }
    // Stryker disable next-line ArrayDeclaration: an HDEL of a field no position has deletes nothing
    const removed: string[] = [];
    const written: string[] = [];
    for (const [field, value] of fields) {
      if (value === undefined) removed.push(field);
      else written.push(field, value);
    }
    if (removed.length > 0) multi.hDel(positionsKey, removed);
    if (written.length > 0) multi.hSet(positionsKey, written);
    if (commit.metrics.size > 0) multi.hSet(this.key("metrics"), Object.fromEntries(commit.metrics));
    multi.set(this.key("checkpoint"), JSON.stringify(commit.checkpoint));
    await multi.exec();
  }

  /** The adapters' cache, in the indexer's namespace. */
  readonly kv: KeyValueStore = {
    get: async (key) => (await this.client.get(this.indexerKey("kv", key))) ?? undefined,
    set: async (key, value) => {
      await this.client.set(this.indexerKey("kv", key), value);
    },
  };

  readonly #labelCache = new Lru<string, Record<string, string>>(10_000);

  /**
   * Immutable asset labels, in the indexer's namespace; read through a memory cache since this process owns them.
   * Adding labels and writing a label's value again are fine; a different value for a label the asset already has
   * is refused with a ConflictError (`label-immutable`) and nothing of that call is written, because feed rules
   * match on labels and a silently changed label would reprice an asset mid-index.
   */
  readonly labels: LabelStore = {
    get: async (asset) => {
      const key = asset.toLowerCase();
      const cached = this.#labelCache.get(key);
      if (cached !== undefined) return cached;
      const labels = await this.client.hGetAll(this.indexerKey("labels", key));
      this.#labelCache.set(key, labels);
      return labels;
    },
    set: async (asset, labels) => {
      const key = asset.toLowerCase();
      const pairs = Object.entries(labels);
      if (pairs.length === 0) return;
      const reply = (await this.client.eval(SET_LABELS_SCRIPT, { keys: [this.indexerKey("labels", key)], arguments: pairs.flat() })) as string[];
      this.#labelCache.delete(key);
      if (reply.length === 0) return;
      const conflicts = [];
      for (let i = 0; i < reply.length; i += 3) conflicts.push({ label: reply[i] as string, stored: reply[i + 1] as string, refused: reply[i + 2] as string });
      throw labelConflict(key, conflicts);
    },
  };

  /** The outbox of sink `sinkId` in the namespace of this config. */
  sinkOutbox(sinkId: string): SinkOutbox {
    return redisOutbox(this.client, this.key("sink", sinkId));
  }

  /** Deletes every key of the indexer (all configs). */
  async clearIndexer(): Promise<number> {
    let deleted = 0;
    for await (const key of this.client.scanIterator({ MATCH: `${this.indexerKey()}:*`, COUNT: 500 })) deleted += await this.client.del(key);
    return deleted;
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.quit();
  }
}

// Shape check of a batch request body: `{ "events": [...] }` with at most 1000 items.
import type { Problem } from "./envelope";

/** Most events one batch request may carry. */
export const MAX_BATCH_EVENTS = 1000;

/** The shape check of a batch body: the raw items, or why the whole request is refused. */
export type BatchBodyResult = { ok: true; events: unknown[] } | { ok: false; problems: Problem[] };

/**
 * Checks the envelope of `POST /api/rest/earn-events`: exactly `{ "events": [ ... ] }` with at most
 * `maxEvents` items. The items themselves are validated one by one afterwards.
 */
export function parseBatchBody(body: unknown, maxEvents: number = MAX_BATCH_EVENTS): BatchBodyResult {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, problems: [{ message: 'body must be a JSON object { "events": [ ... ] }', code: "invalid-body" }] };
  }
  const unknown = Object.keys(body).filter((k) => k !== "events");
  if (unknown.length > 0) {
    const named = unknown.slice(0, 10).map((k) => JSON.stringify(k.length > 64 ? `${k.slice(0, 64)}...` : k));
    return {
      ok: false,
      problems: [{ message: `unknown field ${named.join(", ")}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ""}`, code: "unknown-field" }],
    };
  }
  const events = (body as { events?: unknown }).events;
  if (events === undefined || events === null) return { ok: false, problems: [{ message: "events is required", code: "missing-field" }] };
  if (!Array.isArray(events)) return { ok: false, problems: [{ message: "events must be an array", code: "invalid-body" }] };
  if (events.length > maxEvents) {
    return { ok: false, problems: [{ message: `events must hold at most ${maxEvents} items, got ${events.length}`, code: "too-many-events" }] };
  }
  return { ok: true, events };
}

// Request guards shared by ingest routes: Bearer key checks, content types, event headers and JSON parsing.
import { isUtf8 } from "node:buffer";
import type { Problem } from "@pointwise/ingest-core";
import { type EventSource, firstInvalidUtf8, INVALID_UTF8, idempotencyKeyProblem, invalidUtf8, parseJsonExact } from "@pointwise/schemas";
import type { Request, RequestHandler, Response } from "express";
import type { IngestContext } from "./context";

/** The Bearer token of an Authorization header, or null when there is none. */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** True when Content-Type is `expected`, with no charset other than UTF-8. */
export function mediaTypeIs(header: string | undefined, expected: string): boolean {
  if (!header) return false;
  const [type = "", ...params] = header.split(";");
  if (type.trim().toLowerCase() !== expected) return false;
  for (const param of params) {
    const [name = "", value = ""] = param.split("=");
    if (
      name.trim().toLowerCase() === "charset" &&
      value
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .toLowerCase() !== "utf-8"
    )
      return false;
  }
  return true;
}

/** Starts a request's state under a route name (the first middleware of every ingest route). */
export function begin(ctx: IngestContext, route: string): RequestHandler {
  return (_req, res, next) => {
    ctx.state(res, route);
    next();
  };
}

/**
 * Resolves the Bearer key before any body is read: missing -> missing-api-key; malformed, unknown or
 * revoked -> invalid-api-key (one answer for all three); a key of an archived campaign -> campaign-archived.
 */
export function authenticate(ctx: IngestContext): RequestHandler {
  return async (req, res, next) => {
    const key = bearer(req.get("authorization"));
    if (key === null) return ctx.refuse(res, [{ message: "missing API key: send Authorization: Bearer <API_KEY>", code: "missing-api-key" }]);
    const owner = await ctx.keys.resolve(key);
    if (owner === null) return ctx.refuse(res, [{ message: "invalid API key", code: "invalid-api-key" }]);
    ctx.state(res).owner = owner;
    if (owner.archived) return ctx.refuse(res, [{ message: "the campaign of this API key is archived and accepts no events", code: "campaign-archived" }]);
    ctx.keys.markUsed(owner);
    next();
  };
}

/** Reads the optional headers every event route shares; returns the problems, or records them on the state. */
export function readEventHeaders(ctx: IngestContext, req: Request, res: Response, fallback: EventSource, contentType: string): Problem[] {
  const state = ctx.state(res);
  if (!mediaTypeIs(req.get("content-type"), contentType)) {
    return [{ message: `Content-Type must be ${contentType}${contentType === "text/csv" ? "" : " (charset utf-8 if any)"}`, code: "unsupported-media-type" }];
  }
  const source = req.get("x-pointwise-source");
  if (source !== undefined) {
    if (fallback === "csv" || source.trim().toLowerCase() !== "indexer") {
      return [
        {
          message: fallback === "csv" ? "X-Pointwise-Source is not accepted on CSV uploads" : "X-Pointwise-Source must be indexer when present",
          code: "invalid-source",
        },
      ];
    }
    state.source = "indexer";
  } else {
    state.source = fallback;
  }
  const key = req.get("idempotency-key");
  // On an upload the key names the upload's rows (see importCsv's uploadKey); elsewhere it makes the request a retry.
  if (key !== undefined) {
    const problem = idempotencyKeyProblem(key);
    if (problem) return [{ message: problem, code: "invalid-idempotency-key" }];
    state.idempotencyKey = key;
  }
  return [];
}

const EMPTY_BODY: Problem = { message: "body is empty: send a JSON object", code: "invalid-body" };
// JSON's whitespace (RFC 8259): a body of only these holds no value.
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

/**
 * Parses a JSON body read as bytes; an empty body, bytes that are not UTF-8 and invalid JSON are problems, not
 * exceptions. A number literal a JS number would round is kept as its text (parseJsonExact), so an amount is
 * checked as it was sent.
 */
export function parseJson(body: unknown): { ok: true; value: unknown } | { ok: false; problem: Problem } {
  if (!Buffer.isBuffer(body) || body.length === 0) return { ok: false, problem: EMPTY_BODY };
  // Decoding would turn a stray byte into U+FFFD silently, and an account_id would be stored as another string than the one sent.
  if (!isUtf8(body)) return { ok: false, problem: { message: invalidUtf8("body", firstInvalidUtf8(body)).message, code: INVALID_UTF8 } };
  const text = body.toString("utf8");
  if (JSON_WHITESPACE.test(text)) return { ok: false, problem: EMPTY_BODY };
  try {
    return { ok: true, value: parseJsonExact(text) };
  } catch {
    return { ok: false, problem: { message: "body is not valid JSON", code: "malformed-json" } };
  }
}

// JSON request bodies for the REST apps: parsed by express.json once their bytes are known to be UTF-8.
import { isUtf8 } from "node:buffer";
import { BaseError, ValidationError } from "@pointwise/errors";
import { firstInvalidUtf8, invalidUtf8 } from "@pointwise/schemas";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";

/**
 * express.json with a byte check first: decoding replaces invalid UTF-8 with U+FFFD without a word,
 * so an `account_id` with a stray 0xFF byte would be stored as another string than the one sent.
 * The check runs on the inflated bytes, only when the declared charset is UTF-8 (the default), and
 * a failure reaches the error handler as a ValidationError with code `invalid-utf8` naming the offset.
 */
export function jsonBody(options: { limit: string | number }): RequestHandler {
  return express.json({
    limit: options.limit,
    verify(_req, _res, bytes, encoding) {
      if (encoding.toLowerCase() === "utf-8" && !isUtf8(bytes)) throw invalidUtf8("body", firstInvalidUtf8(bytes));
    },
  });
}

/**
 * Answers what express.json refuses in the service's own codes, all 400: a body that is not JSON (`malformed-json`),
 * one over the limit (`payload-too-large`, naming the limit jsonBody was given, in bytes), a charset other than UTF-8 or a Content-Encoding it
 * cannot inflate (`unsupported-media-type`), and one it could not read to its end (`invalid-body`: a corrupt gzip, deflate or br
 * stream, a body shorter or longer than its Content-Length). Without it they would reach the client as body-parser's
 * 415 types, or with the names of zlib's and raw-body's errors as codes.
 */
export function jsonBodyErrors(): ErrorRequestHandler {
  return (err, _req, _res, next) => {
    switch (err?.type) {
      case "entity.parse.failed":
        return next(new ValidationError("body must be valid JSON", { code: "malformed-json" }));
      case "entity.too.large":
        return next(new ValidationError(`body is larger than ${String(err.limit)} bytes`, { code: "payload-too-large" }));
      case "charset.unsupported":
        return next(new ValidationError(`Content-Type charset ${String(err.charset)} is not supported; send UTF-8`, { code: "unsupported-media-type" }));
      case "encoding.unsupported":
        return next(
          new ValidationError(`Content-Encoding ${String(err.encoding)} is not supported; send gzip, deflate, br or none`, { code: "unsupported-media-type" }),
        );
      default:
        // body-parser's other refusals are http-errors of status 400 (a zlib error wrapped, raw-body's `request.*` types).
        if (!(err instanceof BaseError) && err?.status === 400 && err?.expose === true)
          return next(
            new ValidationError("body could not be read to its end (a corrupt compressed stream, or a length that does not match)", { code: "invalid-body" }),
          );
        return next(err);
    }
  };
}

/**
 * The path of the first string in `value` (object keys included) that PostgreSQL's `text` and
 * `jsonb` cannot hold, one with the character U+0000; null when there is none.
 */
export function unstorableTextPath(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (key.includes("\u0000")) return at;
    const found = unstorableTextPath(child, at);
    if (found) return found;
  }
  return null;
}

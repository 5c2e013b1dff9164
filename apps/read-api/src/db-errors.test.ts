// Which database errors read-api answers as 503 database-unavailable, and which it leaves to be a 500.
import { toDbError } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { fromDatabase, isDatabaseOutage } from "./db-errors";

describe("database outage classification", () => {
  it("treats refused or dropped connections and shutdown states as an outage", () => {
    for (const err of [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("connection failure"), { code: "08006" }),
      new AggregateError([Object.assign(new Error("x"), { code: "ECONNRESET" })]),
    ]) {
      expect(isDatabaseOutage(toDbError(err))).toBe(true);
    }
  });

  it("leaves query errors alone, so a bug is a 500 and not a stale answer", async () => {
    const syntax = toDbError(Object.assign(new Error('syntax error at or near "SELEC"'), { code: "42601" }));
    expect(isDatabaseOutage(syntax)).toBe(false);
    await expect(fromDatabase(() => Promise.reject(syntax))).rejects.toBe(syntax);
    await expect(fromDatabase(() => Promise.reject(toDbError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))))).rejects.toBeInstanceOf(
      RetryableError,
    );
  });
});

// PostgreSQL's column bounds as the API checks them: bigint ids up to 2^63 - 1 and nothing past it.
import { isBigintId, PG_BIGINT_MAX, PG_INTEGER_MAX, storedTimeProblem, storedTimeSchema } from "./bounds";

describe("PostgreSQL bounds", () => {
  it("are 2^63 - 1 for bigint and 2^31 - 1 for integer, as PostgreSQL documents them", () => {
    expect(PG_BIGINT_MAX).toBe(2n ** 63n - 1n);
    expect(PG_INTEGER_MAX).toBe(2 ** 31 - 1);
  });

  it.each(["1", "42", "9223372036854775807"])("takes the bigint id %s", (id) => {
    expect(isBigintId(id)).toBe(true);
  });

  it.each(["0", "-1", "01", "9223372036854775808", "9999999999999999999", "10000000000000000000", "1e3", " 1", "1.0", ""])("refuses %j", (id) => {
    expect(isBigintId(id)).toBe(false);
  });

  // PostgreSQL's timestamptz input has no year 0 (1 BC precedes AD 1) and refuses "0000-..." whatever the offset.
  it.each(["0001-01-01T00:00:00Z", "2026-11-30T10:00:00.5+01:00", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59+00:00"])(
    "lets a timestamptz take %s",
    (time) => {
      expect(storedTimeProblem(time)).toBeNull();
      expect(storedTimeSchema.safeParse(time).success).toBe(true);
    },
  );

  it.each([
    ["0000-01-01T00:00:00Z", "must not be in the year 0000, which PostgreSQL's calendar does not have"],
    ["0000-12-31T23:00:00-05:00", "must not be in the year 0000, which PostgreSQL's calendar does not have"],
    ["0001-01-01T00:00:00+05:00", "must fall in the years 0001 to 9999 in UTC"],
    ["9999-12-31T23:00:00-05:00", "must fall in the years 0001 to 9999 in UTC"],
  ])("refuses %s: %s", (time, problem) => {
    expect(storedTimeProblem(time)).toBe(problem);
    expect(storedTimeSchema.safeParse(time).error?.issues.map((i) => i.message)).toEqual([problem]);
  });

  it("refuses text that is not a date-time with the schema's own message", () => {
    expect(storedTimeSchema.safeParse("yesterday").error?.issues.map((i) => i.message)).toEqual(["must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z"]);
  });
});

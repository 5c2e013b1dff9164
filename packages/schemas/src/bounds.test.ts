// PostgreSQL's column bounds as the API checks them: bigint ids up to 2^63 - 1 and nothing past it.
import { isBigintId, PG_BIGINT_MAX, PG_INTEGER_MAX } from "./bounds";

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
});

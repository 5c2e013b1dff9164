// The bounds of a signed token and the error each broken bound gives its bearer.
import { AuthError } from "@pointwise/errors";
import { checkTokenBounds, tokenBoundsError } from "./token-bounds";

const NOW = 1_800_000_000;

describe("checkTokenBounds and tokenBoundsError", () => {
  it("passes a token with exp, no crit and a life within the maximum", () => {
    expect(checkTokenBounds({ alg: "ES256" }, { iat: NOW, exp: NOW + 900 }, 900, NOW)).toBeNull();
  });

  it("gives token-lifetime-too-long for a life over the maximum, counted from now when iat is absent or later", () => {
    // The third claims 600 s from its iat, an hour ahead, but lives 4,200 s from now.
    for (const payload of [{ iat: NOW, exp: NOW + 901 }, { exp: NOW + 901 }, { iat: NOW + 3_600, exp: NOW + 3_600 + 600 }]) {
      const violation = checkTokenBounds({}, payload, 900, NOW);
      expect(violation?.rule).toBe("lifetime-too-long");
      const error = tokenBoundsError(violation as NonNullable<typeof violation>);
      expect(error).toBeInstanceOf(AuthError);
      expect(error.code).toBe("token-lifetime-too-long");
      expect(error.message).toMatch(/^token lifetime \(exp - iat\) must be at most 900 s; this one claims \d+ s$/);
    }
  });

  it("gives invalid-token for a missing exp and for a crit header, with the rule's message", () => {
    const missing = checkTokenBounds({}, { iat: NOW }, 900, NOW);
    const crit = checkTokenBounds({ crit: ["b64"] }, { exp: NOW + 60 }, 900, NOW);
    expect([missing, crit].map((v) => v && [tokenBoundsError(v).code, tokenBoundsError(v).message])).toEqual([
      ["invalid-token", "token must carry exp"],
      ["invalid-token", "token header crit lists extensions this service does not understand: b64"],
    ]);
  });
});

// read-api's query and path parameters: limit and n ranges, campaign id format, repeated parameters, uuid case.
import { ValidationError } from "@pointwise/errors";
import { parseCampaignId, parseLimit, parseNeighbours, parseUserId } from "./params";

function failureOf(fn: () => unknown): { code: string; message: string } | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return { code: err.code, message: err.message };
    throw err;
  }
  return undefined;
}

const codeOf = (fn: () => unknown) => failureOf(fn)?.code;

describe("query and path parameters", () => {
  it("defaults limit to 100 and accepts whole numbers from 1 to 1000", () => {
    expect(parseLimit(undefined)).toBe(100);
    expect(parseLimit("1")).toBe(1);
    expect(parseLimit("1000")).toBe(1000);
    for (const bad of ["0", "1001", "-1", "abc", "1.5", "", "1e2", " 5", "99999999", ["1", "2"]]) expect(codeOf(() => parseLimit(bad))).toBe("invalid-limit");
  });

  it("defaults n to 5 and accepts 0 to 100", () => {
    expect(parseNeighbours(undefined)).toBe(5);
    expect(parseNeighbours("0")).toBe(0);
    expect(parseNeighbours("100")).toBe(100);
    for (const bad of ["101", "x", "-2"]) expect(codeOf(() => parseNeighbours(bad))).toBe("invalid-n");
  });

  it("requires campaign_id in the xxxx-xxxx format", () => {
    expect(parseCampaignId("ab12-cd34")).toBe("ab12-cd34");
    expect(codeOf(() => parseCampaignId(undefined))).toBe("missing-campaign-id");
    expect(codeOf(() => parseCampaignId(""))).toBe("missing-campaign-id");
    for (const bad of ["AB12-CD34", "ab12cd34", "ab12-cd345", "ab_2-cd34", ["ab12-cd34"]])
      expect(codeOf(() => parseCampaignId(bad))).toBe("invalid-campaign-id");
  });

  it("says a repeated parameter must be given once, keeping the parameter's code", () => {
    expect(failureOf(() => parseCampaignId(["ab12-cd34", "ab12-cd34"]))).toEqual({
      code: "invalid-campaign-id",
      message: "campaign_id must be given once, as a single value",
    });
    expect(failureOf(() => parseLimit(["10", "20"]))).toEqual({ code: "invalid-limit", message: "limit must be given once, as a single value" });
    expect(failureOf(() => parseNeighbours(["1", "2"]))).toEqual({ code: "invalid-n", message: "n must be given once, as a single value" });
  });

  it("accepts a uuid in any case and lower-cases it", () => {
    expect(parseUserId("5F0C7A3E-1B2D-4C5E-8F9A-0B1C2D3E4F5A")).toBe("5f0c7a3e-1b2d-4c5e-8f9a-0b1c2d3e4f5a");
    for (const bad of ["nope", "5f0c7a3e1b2d4c5e8f9a0b1c2d3e4f5a", "5f0c7a3e-1b2d-4c5e-8f9a-0b1c2d3e4f5"])
      expect(codeOf(() => parseUserId(bad))).toBe("invalid-user-id");
  });
});

// The ingest envelope: failure bodies carry only message and code per problem, success bodies wrap data.
import { envelopeErrors, failure, success } from "./envelope";

describe("ingest envelope", () => {
  it("turns each problem into { message, extensions: { code } }, in order", () => {
    expect(
      envelopeErrors([
        { message: "amount must not be negative", code: "negative-amount" },
        { message: "events is required", code: "missing-field" },
      ]),
    ).toEqual([
      { message: "amount must not be negative", extensions: { code: "negative-amount" } },
      { message: "events is required", extensions: { code: "missing-field" } },
    ]);
    expect(envelopeErrors([])).toEqual([]);
  });

  it("sends the client nothing of a problem but its message and code", () => {
    const problem = { message: "m", code: "c", field: "amount", stack: "internal" };
    expect(JSON.stringify(failure(problem))).toBe('{"data":null,"errors":[{"message":"m","extensions":{"code":"c"}}]}');
  });

  it("builds a failure body of one or more problems with data null", () => {
    expect(failure({ message: "a", code: "x" }, { message: "b", code: "y" })).toEqual({
      data: null,
      errors: [
        { message: "a", extensions: { code: "x" } },
        { message: "b", extensions: { code: "y" } },
      ],
    });
  });

  it("wraps a success answer in data", () => {
    expect(success({ event_id: "e1" })).toEqual({ data: { event_id: "e1" } });
    expect(JSON.stringify(success(null))).toBe('{"data":null}');
  });
});

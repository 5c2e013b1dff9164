// The indexer's user-facing symptom errors: stable codes, the symptoms table's messages, details and causes.
import { AuthError, BaseError } from "@pointwise/errors";
import { contractNotFound, fromBlockNotFound, invalidApiKey, rpcConnectionFailed, SYMPTOMS } from "./symptoms";

describe("symptoms", () => {
  it("lists the messages of the symptoms table", () => {
    expect(SYMPTOMS).toEqual({
      invalidApiKey: "Invalid API Key",
      rpcConnectionFailed: "RPC Connection Failed",
      contractNotFound: "Contract Not Found",
      fromBlockNotFound: "fromBlock Not Found",
    });
  });

  it("reports a rejected API key as an auth error with its code, message, details and cause", () => {
    const cause = new Error("HTTP 401");
    const err = invalidApiKey({ cause, details: { status: 401 } });
    expect(err).toBeInstanceOf(AuthError);
    expect(err.code).toBe("invalid-api-key");
    expect(err.message).toBe("Invalid API Key");
    expect(err.details).toEqual({ status: 401 });
    expect(err.cause).toBe(cause);
  });

  it("reports each chain symptom with its own code and message, keeping details and cause", () => {
    const cause = new Error("ECONNREFUSED");
    const cases = [
      [rpcConnectionFailed, "rpc-connection-failed", "RPC Connection Failed"],
      [contractNotFound, "contract-not-found", "Contract Not Found"],
      [fromBlockNotFound, "from-block-not-found", "fromBlock Not Found"],
    ] as const;
    for (const [make, code, message] of cases) {
      const err = make({ cause, details: { reason: "why" } });
      expect(err).toBeInstanceOf(BaseError);
      expect(err).not.toBeInstanceOf(AuthError);
      expect(err.code).toBe(code);
      expect(err.message).toBe(message);
      expect(err.details).toEqual({ reason: "why" });
      expect(err.cause).toBe(cause);
    }
  });

  it("builds each symptom without options, with no details and no cause", () => {
    for (const make of [invalidApiKey, rpcConnectionFailed, contractNotFound, fromBlockNotFound]) {
      const err = make();
      expect(err.details).toBeUndefined();
      expect(err.cause).toBeUndefined();
      expect(err.message).not.toBe("");
    }
  });
});

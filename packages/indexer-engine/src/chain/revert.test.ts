// isCallRevert: a contract's refusal, however the reader wrapped it, and never a call that got no answer.
import { BaseError } from "@pointwise/errors";
import { isCallRevert } from "./revert";
import { RpcResponseError } from "./transport";

describe("isCallRevert", () => {
  it("is true for a node's JSON-RPC error and for ethers' CALL_EXCEPTION, also as the cause of the reader's error", () => {
    const callException = Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION" });
    expect(isCallRevert(new RpcResponseError(3, "execution reverted"))).toBe(true);
    expect(isCallRevert(callException)).toBe(true);
    expect(isCallRevert(new BaseError("rpc-unavailable", "eth_call failed after 5 attempts", { cause: callException }))).toBe(true);
  });

  it("is false for a lost connection, a timeout or nothing at all", () => {
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    expect(isCallRevert(reset)).toBe(false);
    expect(isCallRevert(new BaseError("rpc-unavailable", "eth_call failed after 5 attempts", { cause: reset }))).toBe(false);
    expect(isCallRevert(Object.assign(new Error("request timed out"), { code: "TIMEOUT" }))).toBe(false);
    expect(isCallRevert(undefined)).toBe(false);
  });

  it("looks five errors deep into the cause chain, no deeper, and stops at a null cause or a cycle", () => {
    const callException = Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION" });
    const wrapped = (depth: number): unknown => {
      let err: unknown = callException;
      for (let i = 0; i < depth; i++) err = new BaseError("rpc-unavailable", `wrap ${i}`, { cause: err });
      return err;
    };
    // The revert as the fifth error of the chain (four wrappers) is found; as the sixth it is not.
    expect(isCallRevert(wrapped(4))).toBe(true);
    expect(isCallRevert(wrapped(5))).toBe(false);
    expect(isCallRevert(Object.assign(new Error("outer"), { cause: null }))).toBe(false);
    const cyclic = new Error("a") as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(isCallRevert(cyclic)).toBe(false);
  });
});

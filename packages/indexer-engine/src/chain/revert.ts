// Telling a call the contract refused (a revert) from a call that never got an answer (a lost connection, a timeout).
import { RpcResponseError } from "./transport";

/**
 * True when a call failed because the contract reverted. A node's JSON-RPC error arrives as RpcResponseError; ethers
 * reports a revert without data as CALL_EXCEPTION, which the chain reader retries and then wraps (as the cause of
 * its connection error), so the cause chain is searched for it.
 */
export function isCallRevert(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof RpcResponseError || (e as { code?: unknown }).code === "CALL_EXCEPTION") return true;
  }
  return false;
}

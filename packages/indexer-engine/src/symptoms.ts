// The indexer's user-facing failure symptoms (bad API key, RPC down, contract or start block missing).
import { AuthError, BaseError, type ErrorOptions } from "@pointwise/errors";

/** The user-facing messages of the indexer symptoms table; each names its cause in the docs. */
export const SYMPTOMS = {
  invalidApiKey: "Invalid API Key",
  rpcConnectionFailed: "RPC Connection Failed",
  contractNotFound: "Contract Not Found",
  fromBlockNotFound: "fromBlock Not Found",
} as const;

/** The Pointwise API key was rejected or is a placeholder: use the campaign key. */
export function invalidApiKey(options: ErrorOptions = {}): AuthError {
  return new AuthError("invalid-api-key", SYMPTOMS.invalidApiKey, options);
}

/** The RPC endpoint cannot be reached, rejects the key, or keeps rate limiting. */
export function rpcConnectionFailed(options: ErrorOptions = {}): BaseError {
  return new BaseError("rpc-connection-failed", SYMPTOMS.rpcConnectionFailed, options);
}

/** An adapter contract has no code on the configured chain, or the RPC serves another chain. */
export function contractNotFound(options: ErrorOptions = {}): BaseError {
  return new BaseError("contract-not-found", SYMPTOMS.contractNotFound, options);
}

/** The start block could not be found automatically, or names a block the chain does not have. */
export function fromBlockNotFound(options: ErrorOptions = {}): BaseError {
  return new BaseError("from-block-not-found", SYMPTOMS.fromBlockNotFound, options);
}

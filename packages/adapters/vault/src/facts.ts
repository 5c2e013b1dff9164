// Resolves a vault's underlying asset and the decimals of shares and asset once, cached in the state store.
import { BaseError } from "@pointwise/errors";
import { type AdapterRuntime, decodeAddress, decodeUint, readTokenDecimals } from "@pointwise/indexer-engine";
import { CALLS, underlyingCall } from "./abi";
import type { VaultVersion } from "./params";

/** Protocol part of the adapter's state-store keys. */
export const PROTOCOL_PREFIX = "vault";

/** A vault's immutable facts: its underlying asset (lowercased) and the decimals of its shares and of the asset. */
export interface VaultFacts {
  asset: string;
  shareDecimals: number;
  assetDecimals: number;
}

/** The state-store key prefix of a vault's cached facts: adapter-config hash, protocol prefix, vault address. */
export function vaultKeyPrefix(adapterConfigHash: string, vault: string): string {
  return `${adapterConfigHash}:${PROTOCOL_PREFIX}:${vault.toLowerCase()}`;
}

function initFailed(message: string, vault: string, cause?: unknown): BaseError {
  // BaseError leaves `cause` unset when it is undefined.
  return new BaseError("adapter-init-failed", message, { cause, details: { vault } });
}

/**
 * Reads a vault's underlying asset and decimals once: from the state store when cached, otherwise from the chain
 * (`asset()` for v2, `token()` and `pricePerShare()` for v1, then `decimals()` of both), then caches them. A read
 * that fails means the vault does not speak the configured version, and fails the adapter naming the other one.
 */
export async function loadVaultFacts(vault: string, version: VaultVersion, runtime: AdapterRuntime): Promise<VaultFacts> {
  const prefix = vaultKeyPrefix(runtime.adapterConfigHash, vault);
  const [asset, shareDecimals, assetDecimals] = await Promise.all(["asset", "shareDecimals", "assetDecimals"].map((k) => runtime.store.get(`${prefix}:${k}`)));
  if (asset !== undefined && shareDecimals !== undefined && assetDecimals !== undefined)
    return { asset, shareDecimals: Number(shareDecimals), assetDecimals: Number(assetDecimals) };

  let underlying: string;
  try {
    underlying = decodeAddress(await runtime.chain.call(vault, underlyingCall(version)));
    // A v1 vault is valued by pricePerShare(): a vault without it cannot be priced as v1.
    if (version === "v1") decodeUint(await runtime.chain.call(vault, CALLS.pricePerShare));
  } catch (err) {
    const expected = version === "v2" ? "asset() (ERC-4626)" : "token() and pricePerShare()";
    const other = version === "v2" ? "v1 for a vault with pricePerShare()" : "v2 for an ERC-4626 vault";
    throw initFailed(`vault: could not read ${expected} of vault ${vault} as version ${version}; use ${other}`, vault, err);
  }
  const facts: VaultFacts = {
    asset: underlying,
    shareDecimals: await readDecimals(vault, vault, runtime),
    assetDecimals: await readDecimals(underlying, vault, runtime),
  };
  await runtime.store.set(`${prefix}:asset`, facts.asset);
  await runtime.store.set(`${prefix}:shareDecimals`, String(facts.shareDecimals));
  await runtime.store.set(`${prefix}:assetDecimals`, String(facts.assetDecimals));
  runtime.logger.info({ vault, version, asset: facts.asset }, "vault underlying asset fetched");
  return facts;
}

function readDecimals(token: string, vault: string, runtime: AdapterRuntime): Promise<number> {
  return readTokenDecimals(runtime.chain, token, { adapter: "vault", what: token, details: { vault } });
}

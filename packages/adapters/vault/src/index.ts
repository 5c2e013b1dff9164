// Entry point of the vault indexer adapter: its definition for the registry, and its named exports.
import { defineAdapter } from "@pointwise/indexer-engine";
import { createVaultAdapter } from "./adapter";
import { vaultParams } from "./params";

/** The vault adapter definition: share balances and deposits/withdrawals of one ERC-4626 (v2) or price-per-share (v1) vault. */
export const vaultAdapter = defineAdapter({
  id: "vault",
  version: "0.0.1",
  description:
    "Vault positions: share balances of an ERC-4626 (v2) or price-per-share (v1) vault as time-weighted windows, deposits and withdrawals as actions.",
  paramsSchema: vaultParams,
  create: (params, runtime) => createVaultAdapter(params, runtime),
});

export {
  CALLS,
  decodeMove,
  ERC4626_DEPOSIT_TOPIC,
  ERC4626_WITHDRAW_TOPIC,
  moveTopics,
  underlyingCall,
  V1_DEPOSIT_TOPIC,
  V1_WITHDRAW_TOPIC,
  type VaultMove,
} from "./abi";
export { createVaultAdapter, MOVE_ACTIVITY, moveEvents, SHARE_ACTIVITY, type ShareBurn } from "./adapter";
export { loadVaultFacts, PROTOCOL_PREFIX, type VaultFacts, vaultKeyPrefix } from "./facts";
export { VAULT_VERSIONS, type VaultParams, type VaultVersion, vaultParams } from "./params";

// The vault adapter's config parameters: which vault, and which vault interface it speaks.
import { evmAddress } from "@pointwise/indexer-engine";
import { z } from "zod";

/** Vault interfaces: `v2` is ERC-4626 (`asset()`, `convertToAssets`), `v1` a Yearn-V2-style vault (`token()`, `pricePerShare()`). */
export const VAULT_VERSIONS = ["v1", "v2"] as const;

/** One of the vault interfaces. */
export type VaultVersion = (typeof VAULT_VERSIONS)[number];

/** Parameters of the vault adapter: the vault (which is its own share token) and its interface version. */
export const vaultParams = z
  .object({
    vaultAddress: evmAddress,
    version: z.enum(VAULT_VERSIONS, {
      error: (issue) => (issue.input === undefined ? "is required" : `must be one of ${VAULT_VERSIONS.join(", ")} (v2: ERC-4626, v1: pricePerShare())`),
    }),
  })
  .strict();

/** Validated vault parameters. */
export type VaultParams = z.output<typeof vaultParams>;

// The lending adapter's config parameters: the market's Pool, which reserves, and which sides to track.
import { evmAddress } from "@pointwise/indexer-engine";
import { z } from "zod";

/** Message when neither side is tracked. */
export const NOTHING_TRACKED = "At least one of trackSupply or trackBorrow must be enabled";

/** Parameters of the lending adapter: an Aave V3 market's Pool, the reserves to follow, and the sides. */
export const lendingParams = z
  .object({
    poolAddress: evmAddress,
    // Underlying tokens; when absent, every reserve the Pool lists when the index starts.
    assets: z
      .array(evmAddress, "must be an array of addresses")
      .min(1, "must list at least one asset (omit it to track every reserve)")
      .refine((a) => new Set(a).size === a.length, "must not list an asset twice")
      .optional(),
    trackSupply: z.boolean("must be a boolean").optional(),
    trackBorrow: z.boolean("must be a boolean").optional(),
  })
  .strict()
  .refine((p) => p.trackSupply === true || p.trackBorrow === true, { message: NOTHING_TRACKED });

/** Validated lending parameters. */
export type LendingParams = z.output<typeof lendingParams>;

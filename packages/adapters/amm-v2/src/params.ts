// The amm-v2 adapter's config parameters: which pool, and whether to track swaps, LP balances or both.
import { evmAddress } from "@pointwise/indexer-engine";
import { z } from "zod";

/** Message when neither kind of tracking is enabled (spec: at least one of them must be enabled). */
export const NOTHING_TRACKED = "At least one of trackSwaps or trackLP must be enabled";

/** Parameters of the amm-v2 adapter: the pool and what to track in it. */
export const ammV2Params = z
  .object({
    poolAddress: evmAddress,
    trackSwaps: z.boolean("must be a boolean").optional(),
    trackLP: z.boolean("must be a boolean").optional(),
  })
  .strict()
  .refine((p) => p.trackSwaps === true || p.trackLP === true, { message: NOTHING_TRACKED });

/** Validated amm-v2 parameters. */
export type AmmV2Params = z.output<typeof ammV2Params>;

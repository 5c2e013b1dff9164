// The amm-v3 adapter's config parameters: which pool, which position manager, and what to track.
import { evmAddress } from "@pointwise/indexer-engine";
import { z } from "zod";

/** Message when neither kind of tracking is enabled (the same rule and message as amm-v2). */
export const NOTHING_TRACKED = "At least one of trackSwaps or trackLP must be enabled";

/** Message when positions are tracked without saying which position manager mints them. */
export const MANAGER_REQUIRED = "is required when trackLP is true";

/** Parameters of the amm-v3 adapter: the pool, the position manager of its position NFTs, and what to track. */
export const ammV3Params = z
  .object({
    poolAddress: evmAddress,
    positionManagerAddress: evmAddress.optional(),
    trackSwaps: z.boolean("must be a boolean").optional(),
    trackLP: z.boolean("must be a boolean").optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.trackSwaps !== true && p.trackLP !== true) ctx.addIssue({ code: "custom", message: NOTHING_TRACKED });
    if (p.trackLP === true && p.positionManagerAddress === undefined)
      ctx.addIssue({ code: "custom", path: ["positionManagerAddress"], message: MANAGER_REQUIRED });
  });

/** Validated amm-v3 parameters. */
export type AmmV3Params = z.output<typeof ammV3Params>;

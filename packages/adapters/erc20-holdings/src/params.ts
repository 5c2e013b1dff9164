// The erc20-holdings adapter's config parameters: the token, and which activity holding it counts as.
import { evmAddress } from "@pointwise/indexer-engine";
import { z } from "zod";

/** Balance-delta activities (spec: hold, swap, stake, lend) a holdings adapter may tag its windows with. */
export const HOLDING_ACTIVITIES = ["hold", "stake", "lend"] as const;

/** Parameters of the erc20-holdings adapter: the token, and what holding it means for the campaign. */
export const erc20HoldingsParams = z
  .object({
    tokenAddress: evmAddress,
    // A staking or lending receipt token is held like any other: the activity lets a campaign's
    // earn-event mapping tell those windows from plain holdings.
    activity: z.enum(HOLDING_ACTIVITIES, `must be one of ${HOLDING_ACTIVITIES.join(", ")}`).default("hold"),
  })
  .strict();

/** Validated erc20-holdings parameters. */
export type Erc20HoldingsParams = z.output<typeof erc20HoldingsParams>;

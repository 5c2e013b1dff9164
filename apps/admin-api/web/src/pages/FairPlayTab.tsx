// Campaign tab "Fair play": who is excluded from the campaign and the operators' adjustments of scores.
import { AdjustmentsPanel } from "./AdjustmentsPanel";
import type { CampaignContext } from "./campaign-context";
import { ExclusionsPanel } from "./ExclusionsPanel";

/** Exclusions and adjustments of one campaign. */
export function FairPlayTab({ ctx }: { ctx: CampaignContext }) {
  return (
    <>
      <ExclusionsPanel base={`/api/campaigns/${ctx.campaign.id}`} scope="campaign" readOnly={Boolean(ctx.campaign.archived_at)} />
      <AdjustmentsPanel campaign={ctx.campaign} />
    </>
  );
}

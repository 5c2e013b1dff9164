// Tenant scoping for admin routes: loads a campaign only within the operator's project, and checks ids.
import type { Prisma } from "@pointwise/db";
import { ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import { isCampaignId, UUID_PATTERN } from "@pointwise/schemas";
import type { Deps } from "./deps";
import type { OperatorSession } from "./session";

/** A campaign row as Prisma returns it. */
export type Campaign = Prisma.CampaignGetPayload<true>;

/** Checks a path parameter that must be a uuid; the message names the parameter. */
export function uuidParam(value: string | undefined, name: string): string {
  if (typeof value !== "string" || !UUID_PATTERN.test(value)) throw new ValidationError(`${name} must be a uuid`, { field: name });
  return value.toLowerCase();
}

/**
 * Loads a campaign of the operator's project. A campaign of another project gets exactly the answer
 * of one that does not exist ("not found", never "forbidden"), so ids reveal nothing across tenants.
 */
export async function loadCampaign(deps: Deps, session: OperatorSession, id: string | undefined): Promise<Campaign> {
  if (!isCampaignId(id)) throw new ValidationError("campaign id must have the format xxxx-xxxx (lowercase letters and digits)", { field: "campaign_id" });
  const campaign = await deps.db.prisma.campaign.findFirst({ where: { id, projectId: session.projectId } });
  if (!campaign) throw new NotFoundError(`campaign ${id} not found`, { code: "campaign-not-found" });
  return campaign;
}

/** Like loadCampaign, for changes: an archived campaign is read-only until it is restored. */
export async function loadWritableCampaign(deps: Deps, session: OperatorSession, id: string | undefined): Promise<Campaign> {
  const campaign = await loadCampaign(deps, session, id);
  if (campaign.archivedAt) throw new ConflictError("campaign-archived", `campaign ${campaign.id} is archived; restore it before changing it`);
  return campaign;
}

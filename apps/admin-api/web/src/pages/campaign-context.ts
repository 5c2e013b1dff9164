// What the campaign page hands every one of its tabs, in a module of its own so tabs need not import the page.
import type { Campaign, EventType, Me } from "../types";

/** What every tab of a campaign gets. */
export interface CampaignContext {
  campaign: Campaign;
  eventTypes: EventType[];
  /** Whether the event types have been read, and why not when reading them failed. */
  eventTypesLoaded: boolean;
  eventTypesError: string | null;
  me: Me;
  /** The key created in this browser session, kept only in memory so the curl example can use it. */
  freshKey: string | null;
  setFreshKey: (key: string) => void;
  reloadCampaign: () => void;
  reloadEventTypes: () => void;
}

// One campaign's page: its header and the tab the route names.
import { useState } from "react";
import { api } from "../api";
import type { Answer, Campaign, Me } from "../types";
import { Badge, Notice, useLoad } from "../ui";
import { ApiKeysTab } from "./ApiKeysTab";
import { AuditPanel } from "./AuditPanel";
import type { CampaignContext } from "./campaign-context";
import { EventTypesTab } from "./EventTypesTab";
import { FairPlayTab } from "./FairPlayTab";
import { ImportsTab } from "./ImportsTab";
import { LeaderboardTab } from "./LeaderboardTab";
import { OverviewTab } from "./OverviewTab";
import { RewardsTab } from "./RewardsTab";
import { RulesTab } from "./RulesTab";
import { UsersTab } from "./UsersTab";

const TABS: [string, string][] = [
  ["overview", "Overview"],
  ["keys", "API keys"],
  ["events", "Event types"],
  ["rules", "Rules"],
  ["imports", "CSV import"],
  ["leaderboard", "Leaderboard"],
  ["users", "Users"],
  ["fairplay", "Fair play"],
  ["rewards", "Rewards"],
  ["audit", "Audit"],
];

/** One campaign: its header and tabs. */
export function CampaignPage(props: { campaignId: string; tab: string; me: Me; onChanged: () => void }) {
  const campaign = useLoad(() => api<Campaign>("GET", `/api/campaigns/${props.campaignId}`), [props.campaignId]);
  const eventTypes = useLoad(
    () => api<Answer<"/api/campaigns/{campaign_id}/event-types", "get">>("GET", `/api/campaigns/${props.campaignId}/event-types`),
    [props.campaignId],
  );
  const [freshKey, setFreshKey] = useState<string | null>(null);

  if (campaign.error) return <Notice kind="error">{campaign.error}</Notice>;
  if (!campaign.data) return <p className="muted">Loading…</p>;
  const ctx: CampaignContext = {
    campaign: campaign.data,
    eventTypes: eventTypes.data?.event_types ?? [],
    eventTypesLoaded: eventTypes.data !== null,
    eventTypesError: eventTypes.error,
    me: props.me,
    freshKey,
    setFreshKey,
    reloadCampaign: () => {
      campaign.reload();
      props.onChanged();
    },
    reloadEventTypes: eventTypes.reload,
  };
  const c = campaign.data;

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>
            {c.name} {c.archived_at ? <Badge>archived</Badge> : <Badge tone="green">live</Badge>}
          </h1>
          <div className="muted">
            Campaign id <code data-testid="campaign-id">{c.id}</code> · primary currency {c.currencies[c.primary_currency]} ({c.primary_currency})
          </div>
        </div>
      </div>
      {c.archived_at && (
        <Notice kind="warn">This campaign is archived: its data is kept and readable, but it cannot be changed until it is restored (Overview).</Notice>
      )}
      <nav className="tabs">
        {TABS.map(([key, label]) => (
          <a key={key} className={props.tab === key ? "active" : ""} href={`#/campaigns/${c.id}/${key}`}>
            {label}
          </a>
        ))}
      </nav>
      {props.tab === "overview" && <OverviewTab ctx={ctx} />}
      {props.tab === "keys" && <ApiKeysTab ctx={ctx} />}
      {props.tab === "events" && <EventTypesTab ctx={ctx} />}
      {props.tab === "rules" && <RulesTab ctx={ctx} />}
      {props.tab === "imports" && <ImportsTab ctx={ctx} />}
      {props.tab === "rewards" && <RewardsTab ctx={ctx} />}
      {props.tab === "leaderboard" && <LeaderboardTab ctx={ctx} />}
      {props.tab === "users" && <UsersTab ctx={ctx} />}
      {props.tab === "fairplay" && <FairPlayTab ctx={ctx} />}
      {props.tab === "audit" && <AuditPanel path={`/api/campaigns/${c.id}/audit`} title="Audit trail of this campaign" />}
    </div>
  );
}

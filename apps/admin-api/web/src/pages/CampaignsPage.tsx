// The list of the project's campaigns and the form that creates one.
import { type FormEvent, useState } from "react";
import { api } from "../api";
import { go } from "../router";
import type { Campaign } from "../types";
import { Badge, Card, Field, formatTime, Notice, useAction } from "../ui";
import { type Currencies, CurrenciesField, currenciesProblem, currencyMap, isoOrUndefined, ScheduleFields } from "./CampaignFields";

/** All campaigns of the project and the form that creates one. */
export function CampaignsPage(props: { campaigns: Campaign[]; loaded: boolean; onChanged: () => void }) {
  const [name, setName] = useState("");
  const [currencies, setCurrencies] = useState<Currencies>({ rows: [{ key: "xp", name: "Experience" }], primary: "xp" });
  const [startsAt, setStartsAt] = useState("");
  const [endsAt, setEndsAt] = useState("");
  const action = useAction();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const problem = currenciesProblem(currencies.rows);
    if (problem) {
      action.setError(problem);
      return;
    }
    const body = {
      name,
      currencies: currencyMap(currencies.rows),
      primary_currency: currencies.primary,
      ...(startsAt ? { starts_at: isoOrUndefined(startsAt) } : {}),
      ...(endsAt ? { ends_at: isoOrUndefined(endsAt) } : {}),
    };
    const created = await action.run(() => api<Campaign>("POST", "/api/campaigns", body));
    if (created) {
      props.onChanged();
      go(`/campaigns/${created.id}/overview`);
    }
  };

  return (
    <div className="page">
      <h1>Campaigns</h1>
      <div className="grid-cards">
        {props.campaigns.map((c) => (
          <a key={c.id} className="card campaign-tile" href={`#/campaigns/${c.id}/overview`}>
            <div className="tile-head">
              <strong>{c.name}</strong>
              {c.archived_at ? <Badge>archived</Badge> : <Badge tone="green">live</Badge>}
            </div>
            <code>{c.id}</code>
            <div className="muted small">
              {Object.entries(c.currencies)
                .map(([k, v]) => `${v} (${k})`)
                .join(" · ")}
            </div>
            <div className="muted small">Created {formatTime(c.created_at)}</div>
          </a>
        ))}
        {props.loaded && props.campaigns.length === 0 && <p className="muted">No campaigns yet: create the first one below.</p>}
      </div>

      <Card title="Create a campaign" testId="create-campaign">
        <form onSubmit={create} className="stack">
          <Field label="Name">
            <input name="campaign-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Season 1" required />
          </Field>
          <CurrenciesField
            hint="Each currency has a short key (used in rules and the API) and a display name. The primary currency orders the leaderboard."
            value={currencies}
            onChange={setCurrencies}
          />
          <ScheduleFields optional startsAt={startsAt} endsAt={endsAt} onStartsAt={setStartsAt} onEndsAt={setEndsAt} />
          <Notice kind="error">{action.error}</Notice>
          <div>
            <button type="submit" className="btn btn-primary" disabled={action.busy}>
              Create campaign
            </button>
          </div>
        </form>
      </Card>
    </div>
  );
}

import { type FormEvent, useState } from "react";
import { api } from "../api";
import { go } from "../router";
import type { Campaign } from "../types";
import { Badge, Card, Field, formatTime, Notice, useAction } from "../ui";

/** Rows of a currency editor: key and display name. */
export interface CurrencyRow {
  key: string;
  name: string;
}

/** Edits the currencies of a campaign as rows, with one primary currency. */
export function CurrencyEditor(props: {
  rows: CurrencyRow[];
  primary: string;
  onChange: (rows: CurrencyRow[], primary: string) => void;
  lockedKeys?: string[];
}) {
  const { rows, primary, onChange } = props;
  const set = (i: number, patch: Partial<CurrencyRow>) => {
    const next = rows.map((r, j) => (j === i ? { ...r, ...patch } : r));
    const oldKey = rows[i]?.key;
    onChange(next, primary === oldKey && patch.key !== undefined ? patch.key : primary);
  };
  return (
    <div className="currency-editor">
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position while being typed.
        <div className="currency-row" key={i}>
          <input
            aria-label={`Currency ${i + 1} key`}
            placeholder="key, e.g. xp"
            value={row.key}
            disabled={props.lockedKeys?.includes(row.key)}
            onChange={(e) => set(i, { key: e.target.value.toLowerCase() })}
          />
          <input
            aria-label={`Currency ${i + 1} name`}
            placeholder="display name, e.g. Experience"
            value={row.name}
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <label className="inline">
            <input type="radio" name="primary" checked={primary === row.key && row.key !== ""} onChange={() => onChange(rows, row.key)} /> primary
          </label>
          {rows.length > 1 && !props.lockedKeys?.includes(row.key) && (
            <button
              type="button"
              className="btn btn-small btn-ghost"
              onClick={() =>
                onChange(
                  rows.filter((_, j) => j !== i),
                  primary === row.key ? "" : primary,
                )
              }
            >
              Remove
            </button>
          )}
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => onChange([...rows, { key: "", name: "" }], primary)}>
        + Add currency
      </button>
    </div>
  );
}

/** Turns currency rows into the API's key -> name map. */
export function currencyMap(rows: CurrencyRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.name.trim()]));
}

/** A local date-time input value as an ISO time, or undefined when empty. */
export function isoOrUndefined(value: string): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}

/** All campaigns of the project and the form that creates one. */
export function CampaignsPage(props: { campaigns: Campaign[]; onChanged: () => void }) {
  const [name, setName] = useState("");
  const [rows, setRows] = useState<CurrencyRow[]>([{ key: "xp", name: "Experience" }]);
  const [primary, setPrimary] = useState("xp");
  const [startsAt, setStartsAt] = useState("");
  const [endsAt, setEndsAt] = useState("");
  const action = useAction();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      name,
      currencies: currencyMap(rows),
      primary_currency: primary,
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
        {props.campaigns.length === 0 && <p className="muted">No campaigns yet: create the first one below.</p>}
      </div>

      <Card title="Create a campaign" testId="create-campaign">
        <form onSubmit={create} className="stack">
          <Field label="Name">
            <input name="campaign-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Season 1" required />
          </Field>
          <Field
            label="Currencies"
            hint="Each currency has a short key (used in rules and the API) and a display name. The primary currency orders the leaderboard."
          >
            <CurrencyEditor
              rows={rows}
              primary={primary}
              onChange={(r, p) => {
                setRows(r);
                setPrimary(p);
              }}
            />
          </Field>
          <div className="form-row">
            <Field label="Starts (optional)">
              <input type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
            </Field>
            <Field label="Ends (optional)">
              <input type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />
            </Field>
          </div>
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

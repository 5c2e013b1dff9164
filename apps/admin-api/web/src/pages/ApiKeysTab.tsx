// Campaign tab "API keys": generate, list, allow or stop backfill, and revoke the keys integrators send events with.
import { type FormEvent, useState } from "react";
import { api } from "../api";
import type { Answer, ApiKey, CreatedApiKey } from "../types";
import { Badge, Card, CopyButton, DataTable, EndableCells, Field, formatTime, Notice, useAction, useLoad } from "../ui";
import type { CampaignContext } from "./campaign-context";

/** API keys: create (the key is shown once, to copy), list with last use and backfill, allow or stop backfill, revoke. */
export function ApiKeysTab({ ctx }: { ctx: CampaignContext }) {
  const path = `/api/campaigns/${ctx.campaign.id}/api-keys`;
  const keys = useLoad(() => api<Answer<"/api/campaigns/{campaign_id}/api-keys", "get">>("GET", path), [path]);
  const [label, setLabel] = useState("");
  const [backfill, setBackfill] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const action = useAction();
  // What is done from the list (backfill, revoke) fails in the list, beside the button, not above it in the form.
  const rowAction = useAction();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const key = await action.run(() => api<CreatedApiKey>("POST", path, { ...(label ? { label } : {}), ...(backfill ? { backfill } : {}) }));
    if (key?.key) {
      setCreated(key);
      ctx.setFreshKey(key.key);
      setLabel("");
      setBackfill(false);
      keys.reload();
    }
  };
  const setKeyBackfill = async (key: ApiKey, allow: boolean) => {
    if (allow && !window.confirm(`Let ${key.prefix}… report events as far back as the campaign's start? Give this only to a trusted importer or indexer.`))
      return;
    if (await rowAction.run(() => api<ApiKey>("PATCH", `${path}/${key.id}`, { backfill: allow }))) keys.reload();
  };
  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke ${key.prefix}…? Anything still using it will be refused at once.`)) return;
    await rowAction.run(() => api("POST", `${path}/${key.id}/revoke`));
    keys.reload();
  };

  return (
    <>
      <Card title="Create an API key">
        <p className="muted">
          Your backend (or the indexer) sends events with this key: <code>Authorization: Bearer &lt;key&gt;</code>.
        </p>
        <p className="muted small">
          An event may say when it happened (<code>occurred_at</code>). An ordinary key reports at most a day into the past; a key that may backfill reports as
          far back as the campaign's start, for importing history.
        </p>
        <form className="form-row" onSubmit={create}>
          <Field label="Label (optional)">
            <input name="key-label" value={label} onChange={(e) => setLabel(e.target.value)} placeholder="production backend" maxLength={80} />
          </Field>
          <label className="inline">
            <input type="checkbox" name="key-backfill" checked={backfill} onChange={(e) => setBackfill(e.target.checked)} /> may backfill (report events older
            than a day)
          </label>
          <button type="submit" className="btn btn-primary" disabled={action.busy || Boolean(ctx.campaign.archived_at)}>
            Generate key
          </button>
        </form>
        <Notice kind="error">{action.error ?? keys.error}</Notice>
        {created?.key && (
          <div className="secret" data-testid="new-api-key">
            <div>
              <strong>Copy this key now: it is shown only once.</strong> Only a hash of it is stored; if it is lost, generate a new one and revoke this one.
            </div>
            <div className="secret-value">
              <code>{created.key}</code>
              <CopyButton text={created.key} label="Copy key" />
            </div>
          </div>
        )}
      </Card>
      <Card title="Keys">
        <DataTable
          columns={["Key", "Label", "Backfill", "Created", "Last used", "Status", ""]}
          note={keys.data?.api_keys.length === 0 && "No keys yet."}
          testId="api-keys"
        >
          {keys.data?.api_keys.map((k) => (
            <tr key={k.id}>
              <td className="nowrap">
                <code>{k.prefix}…</code>
              </td>
              <td>{k.label ?? <span className="muted">—</span>}</td>
              <td className="nowrap">
                {k.backfill ? <Badge tone="amber">may backfill</Badge> : <span className="muted">last day only</span>}
                {!k.revoked_at && (
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => setKeyBackfill(k, !k.backfill)}
                    disabled={rowAction.busy || Boolean(ctx.campaign.archived_at)}
                  >
                    {k.backfill ? "Stop backfill" : "Allow backfill"}
                  </button>
                )}
              </td>
              <td>{formatTime(k.created_at)}</td>
              <td>{k.last_used_at ? formatTime(k.last_used_at) : <span className="muted">never</span>}</td>
              <EndableCells
                ended={k.revoked_at && `revoked ${formatTime(k.revoked_at)}`}
                action="Revoke"
                onEnd={() => revoke(k)}
                danger
                disabled={rowAction.busy}
              />
            </tr>
          ))}
        </DataTable>
        <Notice kind="error">{rowAction.error}</Notice>
      </Card>
    </>
  );
}

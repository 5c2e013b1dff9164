// Campaign tab "Overview": setup checklist, a ready curl, settings, bad words, archive and restore.
import { type FormEvent, useState } from "react";
import { api } from "../api";
import type { Answer, Campaign } from "../types";
import { Card, CopyButton, Field, Notice, useAction, useLoad } from "../ui";
import { type Currencies, CurrenciesField, currenciesProblem, currencyMap, isoOrUndefined, ScheduleFields, utcInputOf } from "./CampaignFields";
import type { CampaignContext } from "./campaign-context";

/** A ready-to-paste curl that sends one earn event to this campaign. */
export function curlFor(ingestUrl: string, apiKey: string, regEventId: string): string {
  const body = JSON.stringify({
    account_id: "0x52908400098527886E0F7030069857D2E4169EE7",
    identity_type: "EVM_ADDRESS",
    amount: "10",
    reg_event_id: regEventId,
  });
  return [
    `curl -s -X POST ${ingestUrl}/api/rest/earn-event \\`,
    `  -H 'Authorization: Bearer ${apiKey}' \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -d '${body}'`,
  ].join("\n");
}

/** First steps with real ids, settings, bad words, archive. */
export function OverviewTab({ ctx }: { ctx: CampaignContext }) {
  const c = ctx.campaign;
  const base = `/api/campaigns/${c.id}`;
  const keys = useLoad(() => api<Answer<"/api/campaigns/{campaign_id}/api-keys", "get">>("GET", `${base}/api-keys`), [base]);
  const rules = useLoad(() => api<Answer<"/api/campaigns/{campaign_id}/rule-versions", "get">>("GET", `${base}/rule-versions`), [base]);
  const activeTypes = ctx.eventTypes.filter((t) => !t.retired_at);
  const [typeId, setTypeId] = useState("");
  const regEventId = typeId || activeTypes[0]?.reg_event_id || "<REG_EVENT_ID>";
  const curl = curlFor(ctx.me.settings.ingest_public_url, ctx.freshKey ?? "<YOUR_API_KEY>", regEventId);
  const liveKeys = keys.data?.api_keys.filter((k) => !k.revoked_at).length ?? 0;
  const active = rules.data?.rule_versions.find((v) => v.status === "active");
  // A step whose list did not load is neither done nor not done: it shows as unknown, and the notice says why.
  const steps: [boolean, string | null, string, string][] = [
    [liveKeys > 0, keys.error, "Generate an API key", "keys"],
    [activeTypes.length > 0, ctx.eventTypesError, "Register an event type", "events"],
    [Boolean(active), rules.error, "Write and activate rules", "rules"],
  ];
  const unread = keys.error ?? rules.error ?? ctx.eventTypesError;

  return (
    <>
      <Card title="Send an event">
        <Notice kind="error">{unread && `The checklist could not be read (${unread}).`}</Notice>
        <ol className="checklist">
          {steps.map(([done, error, text, tab]) => (
            <li key={tab} className={error ? "unknown" : done ? "done" : ""}>
              <span className="check" title={error ? "unknown" : done ? "done" : "not done"}>
                {error ? "?" : done ? "✓" : "○"}
              </span>{" "}
              <a href={`#/campaigns/${c.id}/${tab}`}>{text}</a>
            </li>
          ))}
        </ol>
        <div className="form-row">
          <Field label="Event type">
            <select value={regEventId} onChange={(e) => setTypeId(e.target.value)}>
              {activeTypes.map((t) => (
                <option key={t.reg_event_id} value={t.reg_event_id}>
                  {t.name}
                </option>
              ))}
              {activeTypes.length === 0 && <option value="">register an event type first</option>}
            </select>
          </Field>
        </div>
        <pre className="code" data-testid="curl">
          {curl}
        </pre>
        <div className="row">
          <CopyButton text={curl} label="Copy curl" />
          {!ctx.freshKey && (
            <span className="muted small">The key is only shown when it is created: generate one under API keys and it appears here for this session.</span>
          )}
        </div>
        <p className="muted small">
          Public leaderboard: <code>{`${ctx.me.settings.read_api_url}/leaderboard?campaign_id=${c.id}`}</code>
        </p>
      </Card>
      <SettingsCard campaign={c} onSaved={ctx.reloadCampaign} />
      <BadWordsCard campaign={c} onSaved={ctx.reloadCampaign} />
      <ArchiveCard campaign={c} onSaved={ctx.reloadCampaign} />
    </>
  );
}

function SettingsCard(props: { campaign: Campaign; onSaved: () => void }) {
  const c = props.campaign;
  const [name, setName] = useState(c.name);
  const [currencies, setCurrencies] = useState<Currencies>({
    rows: Object.entries(c.currencies).map(([key, n]) => ({ key, name: n })),
    primary: c.primary_currency,
  });
  const [startsAt, setStartsAt] = useState(utcInputOf(c.starts_at));
  const [endsAt, setEndsAt] = useState(utcInputOf(c.ends_at));
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const problem = currenciesProblem(currencies.rows);
    if (problem) {
      action.setError(problem);
      return;
    }
    // A date is sent only when it was edited: the input shows minutes, so sending it back unedited
    // could cut a stored date's seconds off, change it and recompute every score for nothing.
    const body = {
      name,
      currencies: currencyMap(currencies.rows),
      primary_currency: currencies.primary,
      ...(startsAt === utcInputOf(c.starts_at) ? {} : { starts_at: isoOrUndefined(startsAt) ?? null }),
      ...(endsAt === utcInputOf(c.ends_at) ? {} : { ends_at: isoOrUndefined(endsAt) ?? null }),
    };
    const res = await action.run(() => api<Answer<"/api/campaigns/{campaign_id}", "patch">>("PATCH", `/api/campaigns/${c.id}`, body));
    if (res) {
      setSaved(
        res.recompute_job ? "Saved. Only events that happened between the new dates earn: every score is being recomputed in the background." : "Saved.",
      );
      props.onSaved();
    }
  };

  return (
    <Card title="Settings">
      <form className="stack" onSubmit={save}>
        <Field label="Name">
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </Field>
        <CurrenciesField hint="A currency that already has points cannot be removed; you can rename it." value={currencies} onChange={setCurrencies} />
        <ScheduleFields startsAt={startsAt} endsAt={endsAt} onStartsAt={setStartsAt} onEndsAt={setEndsAt} />
        <p className="muted small">
          Only events that happened from the start up to (not including) the end earn points. Changing a date recomputes every score from the event log.
        </p>
        <Notice kind="error">{action.error}</Notice>
        <Notice kind="success">{saved}</Notice>
        <div>
          <button type="submit" className="btn btn-primary" disabled={action.busy || Boolean(c.archived_at)}>
            Save settings
          </button>
        </div>
      </form>
    </Card>
  );
}

function BadWordsCard(props: { campaign: Campaign; onSaved: () => void }) {
  const [text, setText] = useState(props.campaign.bad_words.join("\n"));
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const save = async () => {
    setSaved(false);
    const words = text
      .split("\n")
      .map((w) => w.trim())
      .filter(Boolean);
    const res = await action.run(() =>
      api<Answer<"/api/campaigns/{campaign_id}/bad-words", "put">>("PUT", `/api/campaigns/${props.campaign.id}/bad-words`, { bad_words: words }),
    );
    if (res) {
      setText(res.bad_words.join("\n"));
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <Card title="Bad words">
      <p className="muted">
        A display name containing one of these (anywhere, any case) is not shown on the public leaderboard; the X username or an anonymous name is shown
        instead. These add to the service's default list.
      </p>
      <textarea rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder="one word per line" />
      <Notice kind="error">{action.error}</Notice>
      {saved && <Notice kind="success">Saved.</Notice>}
      <button type="button" className="btn" onClick={save} disabled={action.busy || Boolean(props.campaign.archived_at)}>
        Save bad words
      </button>
    </Card>
  );
}

function ArchiveCard(props: { campaign: Campaign; onSaved: () => void }) {
  const action = useAction();
  const archived = Boolean(props.campaign.archived_at);
  const toggle = async () => {
    if (!archived && !window.confirm("Archive this campaign? Nothing is deleted; it becomes read-only until you restore it.")) return;
    if (await action.run(() => api("POST", `/api/campaigns/${props.campaign.id}/${archived ? "restore" : "archive"}`))) props.onSaved();
  };
  return (
    <Card title={archived ? "Restore" : "Archive"}>
      <p className="muted">
        {archived ? "Restoring makes the campaign editable again." : "Archiving keeps every event, score and key, and makes the campaign read-only."}
      </p>
      <Notice kind="error">{action.error}</Notice>
      <button type="button" className={archived ? "btn" : "btn btn-danger"} onClick={toggle} disabled={action.busy}>
        {archived ? "Restore campaign" : "Archive campaign"}
      </button>
    </Card>
  );
}

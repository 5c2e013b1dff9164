// The rule editor's form: currencies (decimals, budget, decay, tiers, caps), rules and referral shares.
import type { Campaign, EventType } from "../types";
import { ListInput, NumberInput, TextInput, UtcTimeInput } from "./inputs";
import { type CurrencyDoc, newRule, type RuleDoc, type RuleDocument, setIn, type TierDoc } from "./model";
import { CapsInput, RuleCard } from "./RuleCard";

function CurrencySettings(props: { currencyKey: string; value: CurrencyDoc; onChange: (c: CurrencyDoc) => void }) {
  const c = props.value;
  const set = <K extends keyof CurrencyDoc>(key: K, value: CurrencyDoc[K] | undefined) => {
    const next = { ...c };
    if (value === undefined) delete next[key];
    else next[key] = value;
    props.onChange(next);
  };
  return (
    <div className="currency-card">
      <div className="rule-head">
        <strong>{c.name}</strong> <code>{props.currencyKey}</code>
      </div>
      <div className="form-row wrap">
        <NumberInput
          label="Decimals"
          min={0}
          max={18}
          value={c.decimals}
          onChange={(v) => set("decimals", v)}
          hint="Awards are rounded down to this many places."
        />
        <TextInput
          label="Campaign budget"
          value={c.budget}
          placeholder="unlimited"
          onChange={(v) => set("budget", v)}
          hint="The most ever paid in this currency."
        />
        <label className="field">
          <span className="field-label">Decay</span>
          <span className="inline">
            <input
              type="checkbox"
              checked={Boolean(c.decay)}
              onChange={(e) =>
                set("decay", e.target.checked ? { halfLifeSeconds: 30 * 86400, epoch: `${new Date().toISOString().slice(0, 10)}T00:00:00Z` } : undefined)
              }
            />{" "}
            points lose value over time
          </span>
        </label>
      </div>
      {c.decay && (
        <div className="form-row">
          <NumberInput
            label="Half-life (days)"
            min={1}
            value={Math.round(c.decay.halfLifeSeconds / 86400)}
            onChange={(v) => set("decay", { epoch: c.decay?.epoch ?? "", halfLifeSeconds: (v ?? 1) * 86400 })}
          />
          <UtcTimeInput
            label="Counting from"
            value={c.decay.epoch}
            onChange={(v) => set("decay", { halfLifeSeconds: c.decay?.halfLifeSeconds ?? 86400, epoch: v ?? "" })}
          />
        </div>
      )}
      <details>
        <summary>Tiers ({c.tiers?.length ?? 0})</summary>
        <p className="muted small">Reached on lifetime points (never decayed); a tier may multiply every award in this currency.</p>
        <ListInput<TierDoc>
          items={c.tiers}
          addLabel="+ Add a tier"
          add={() => ({ key: `tier${(c.tiers?.length ?? 0) + 1}`, name: "New tier", minLifetime: String(((c.tiers?.length ?? 0) + 1) * 1000) })}
          onChange={(v) => set("tiers", v)}
          render={(t, setT) => (
            <div className="form-row wrap">
              <TextInput label="Key" value={t.key} onChange={(v) => setT({ ...t, key: v ?? "" })} />
              <TextInput label="Name" value={t.name} onChange={(v) => setT({ ...t, name: v ?? "" })} />
              <TextInput label="From lifetime points" value={t.minLifetime} onChange={(v) => setT({ ...t, minLifetime: v ?? "" })} />
              <TextInput
                label="Multiplier"
                value={t.multiplier}
                placeholder="none"
                onChange={(v) => setT({ ...t, ...(v ? { multiplier: v } : { multiplier: undefined }) })}
              />
            </div>
          )}
        />
      </details>
      <details>
        <summary>Caps per user ({c.caps?.length ?? 0})</summary>
        <CapsInput caps={c.caps} onChange={(v) => set("caps", v)} />
      </details>
    </div>
  );
}

/** The readable rule editor: currency settings, one card per rule, referral shares. */
export function RuleForm(props: { doc: RuleDocument; campaign: Campaign; eventTypes: EventType[]; onChange: (doc: RuleDocument) => void }) {
  const { doc, campaign, onChange } = props;
  const currencies = Object.keys(campaign.currencies);
  const docCurrencies = doc.currencies ?? {};
  const tiersOf = (key: string) => docCurrencies[key]?.tiers ?? [];
  const firstType = props.eventTypes.find((t) => !t.retired_at);
  const rules: RuleDoc[] = Array.isArray(doc.rules) ? doc.rules : [];

  return (
    <div className="rule-form">
      <h3>Currencies</h3>
      <div className="grid-2">
        {currencies.map((key) => (
          <CurrencySettings
            key={key}
            currencyKey={key}
            value={docCurrencies[key] ?? { name: campaign.currencies[key] ?? key }}
            onChange={(c) => onChange(setIn(doc, ["currencies", key], c))}
          />
        ))}
      </div>
      <h3>Rules</h3>
      {rules.length === 0 && <p className="muted">No rules yet: events earn nothing until a rule pays for them.</p>}
      {rules.map((rule, i) => (
        <RuleCard
          // biome-ignore lint/suspicious/noArrayIndexKey: rules are identified by their position while ids are edited.
          key={i}
          index={i}
          rule={rule}
          currencies={currencies}
          tiersOf={tiersOf}
          eventTypes={props.eventTypes}
          onChange={(r) => onChange(r === undefined ? { ...doc, rules: rules.filter((_, j) => j !== i) } : setIn(doc, ["rules", i], r))}
        />
      ))}
      <button
        type="button"
        className="btn"
        disabled={!firstType}
        onClick={() =>
          onChange({
            ...doc,
            rules: [...rules, newRule(firstType?.reg_event_id ?? "", campaign.primary_currency, `${firstType?.name ?? "rule"}-${rules.length + 1}`)],
          })
        }
      >
        + Add a rule
      </button>
      {!firstType && <span className="muted small"> Register an event type first.</span>}
      <h3>Referrals</h3>
      <p className="muted small">A referrer earns this share of what their referees are paid, as referral points in the same currency (0 to 1; empty: none).</p>
      <div className="form-row wrap">
        {currencies.map((key) => (
          <TextInput
            key={key}
            label={`Share of ${key}`}
            value={doc.referral?.shares?.[key]}
            placeholder="none"
            onChange={(v) => {
              const shares = { ...(doc.referral?.shares ?? {}) };
              if (v === undefined) delete shares[key];
              else shares[key] = v;
              const next = { ...doc };
              if (Object.keys(shares).length) next.referral = { shares };
              else delete next.referral;
              onChange(next);
            }}
          />
        ))}
      </div>
    </div>
  );
}

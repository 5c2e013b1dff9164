// The rule editor's card for one rule, and its caps input.
import { type EventType, IDENTITY_TYPES } from "../types";
import { ListInput, NumberInput, TextInput, UtcTimeInput, WindowInput } from "./inputs";
import {
  CAP_PERIODS,
  type CapDoc,
  describeRule,
  type MilestoneDoc,
  MULTIPLIER_KINDS,
  type MultiplierDoc,
  type RuleDoc,
  type TierDoc,
  type WindowDoc,
} from "./model";

/** Caps: at most N per day/week/month/campaign. */
export function CapsInput(props: { caps: CapDoc[] | undefined; onChange: (caps: CapDoc[] | undefined) => void }) {
  return (
    <ListInput<CapDoc>
      items={props.caps}
      addLabel="+ Add a cap"
      add={() => ({ period: "day", limit: "100" })}
      onChange={props.onChange}
      render={(cap, set) => (
        <div className="form-row">
          <TextInput label="At most" value={cap.limit} onChange={(v) => set({ ...cap, limit: v ?? "" })} />
          <label className="field">
            <span className="field-label">per</span>
            <select value={cap.period} onChange={(e) => set({ ...cap, period: e.target.value as CapDoc["period"] })}>
              {CAP_PERIODS.map((p) => (
                <option key={p} value={p}>
                  {p === "campaign" ? "whole campaign" : `${p} (UTC)`}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
    />
  );
}

function FactorsInput(props: { keys: string[]; factors: Record<string, string> | undefined; onChange: (f: Record<string, string>) => void }) {
  const factors = props.factors ?? {};
  return (
    <div className="form-row wrap">
      {props.keys.map((k) => (
        <TextInput
          key={k}
          label={`x for ${k}`}
          value={factors[k]}
          placeholder="1"
          onChange={(v) => {
            const { [k]: _old, ...rest } = factors;
            props.onChange(v === undefined ? rest : { ...rest, [k]: v });
          }}
        />
      ))}
      {props.keys.length === 0 && <span className="muted small">This currency has no tiers yet (add them under Currencies).</span>}
    </div>
  );
}

function MultiplierInput(props: { m: MultiplierDoc; tiers: TierDoc[]; set: (m: MultiplierDoc) => void }) {
  const { m, set } = props;
  const changeKind = (kind: MultiplierDoc["kind"]) => {
    if (kind === "constant") set({ kind, factor: m.factor ?? "2" });
    if (kind === "window") set({ kind, factor: m.factor ?? "2", from: "2026-01-01T00:00:00Z", until: "2026-01-08T00:00:00Z" });
    if (kind === "recurring") set({ kind, factor: m.factor ?? "2", window: { days: ["sat", "sun"] } });
    if (kind === "tier" || kind === "identityType") set({ kind, factors: {} });
  };
  return (
    <div className="stack">
      <div className="form-row">
        <label className="field">
          <span className="field-label">Applies</span>
          <select value={m.kind} onChange={(e) => changeKind(e.target.value as MultiplierDoc["kind"])}>
            {MULTIPLIER_KINDS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {(m.kind === "constant" || m.kind === "window" || m.kind === "recurring") && (
          <TextInput label="Factor" value={m.factor} onChange={(v) => set({ ...m, factor: v ?? "" })} />
        )}
        {m.kind === "window" && <UtcTimeInput label="From" value={m.from} onChange={(v) => set({ ...m, from: v ?? "" })} />}
        {m.kind === "window" && <UtcTimeInput label="Until" value={m.until} onChange={(v) => set({ ...m, until: v ?? "" })} />}
      </div>
      {m.kind === "recurring" && <WindowInput value={m.window} onChange={(w) => set({ ...m, window: w })} />}
      {m.kind === "tier" && <FactorsInput keys={props.tiers.map((t) => t.key)} factors={m.factors} onChange={(f) => set({ ...m, factors: f })} />}
      {m.kind === "identityType" && <FactorsInput keys={IDENTITY_TYPES} factors={m.factors} onChange={(f) => set({ ...m, factors: f })} />}
    </div>
  );
}

/** Everything one rule can say, as form fields. */
export function RuleCard(props: {
  index: number;
  rule: RuleDoc;
  currencies: string[];
  tiersOf: (currency: string) => TierDoc[];
  eventTypes: EventType[];
  onChange: (rule: RuleDoc | undefined) => void;
}) {
  const { rule, onChange } = props;
  const set = <K extends keyof RuleDoc>(key: K, value: RuleDoc[K] | undefined) => {
    const next = { ...rule };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const baseKind = rule.base?.kind ?? "none";
  return (
    <div className="rule-card" data-testid={`rule-${props.index}`}>
      <div className="rule-head">
        <strong>Rule {props.index + 1}</strong> <span className="muted">{describeRule(rule, props.eventTypes)}</span>
        <button type="button" className="btn btn-small btn-ghost right" onClick={() => onChange(undefined)}>
          Delete rule
        </button>
      </div>
      <div className="form-row wrap">
        <TextInput label="Rule id" value={rule.id} onChange={(v) => set("id", v ?? "")} hint="Shown in every ledger entry it pays." />
        <label className="field">
          <span className="field-label">When this event arrives</span>
          <select value={rule.regEventId} onChange={(e) => set("regEventId", e.target.value)} data-testid="rule-event-type">
            {!props.eventTypes.some((t) => t.reg_event_id === rule.regEventId) && (
              <option value={rule.regEventId}>{rule.regEventId || "choose an event type"}</option>
            )}
            {props.eventTypes.map((t) => (
              <option key={t.reg_event_id} value={t.reg_event_id} disabled={Boolean(t.retired_at)}>
                {t.name}
                {t.retired_at ? " (retired)" : ""}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Pay in</span>
          <select value={rule.currency} onChange={(e) => set("currency", e.target.value)}>
            {props.currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="form-row wrap">
        <label className="field">
          <span className="field-label">Pays</span>
          <select
            value={baseKind}
            data-testid="rule-base-kind"
            onChange={(e) =>
              set("base", e.target.value === "none" ? undefined : { kind: e.target.value as "perUnit" | "fixed", points: rule.base?.points ?? "1" })
            }
          >
            <option value="perUnit">per unit of the event's amount</option>
            <option value="fixed">fixed per event</option>
            <option value="none">none (milestones only)</option>
          </select>
        </label>
        {rule.base && (
          <TextInput
            label="Points"
            testId="rule-points"
            value={rule.base.points}
            onChange={(v) => set("base", { kind: rule.base?.kind ?? "perUnit", points: v ?? "" })}
          />
        )}
        <TextInput label="Minimum amount" value={rule.minAmount} placeholder="none" onChange={(v) => set("minAmount", v)} hint="Smaller events do not count." />
        <NumberInput
          label="Cooldown (seconds)"
          min={1}
          value={rule.cooldownSeconds}
          onChange={(v) => set("cooldownSeconds", v)}
          hint="At most one counted event per user per period."
        />
      </div>
      <details>
        <summary>Multipliers ({rule.multipliers?.length ?? 0})</summary>
        <p className="muted small">All factors that apply multiply together; milestones and referral shares are not multiplied.</p>
        <ListInput<MultiplierDoc>
          items={rule.multipliers}
          addLabel="+ Add a multiplier"
          add={() => ({ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } })}
          onChange={(v) => set("multipliers", v)}
          render={(m, setM) => <MultiplierInput m={m} tiers={props.tiersOf(rule.currency)} set={setM} />}
        />
      </details>
      <details>
        <summary>Milestones ({rule.milestones?.length ?? 0})</summary>
        <p className="muted small">A bonus paid once when a user's total amount or number of counted events reaches the level.</p>
        <ListInput<MilestoneDoc>
          items={rule.milestones}
          addLabel="+ Add a milestone"
          add={() => ({ id: `milestone-${(rule.milestones?.length ?? 0) + 1}`, metric: "count", level: "10", points: "100" })}
          onChange={(v) => set("milestones", v)}
          render={(m, setM) => (
            <div className="form-row wrap">
              <TextInput label="Id" value={m.id} onChange={(v) => setM({ ...m, id: v ?? "" })} />
              <label className="field">
                <span className="field-label">When the user's</span>
                <select value={m.metric} onChange={(e) => setM({ ...m, metric: e.target.value as "amount" | "count" })}>
                  <option value="count">number of events</option>
                  <option value="amount">total amount</option>
                </select>
              </label>
              <TextInput label="reaches" value={m.level} onChange={(v) => setM({ ...m, level: v ?? "" })} />
              <TextInput label="pay once" value={m.points} onChange={(v) => setM({ ...m, points: v ?? "" })} />
            </div>
          )}
        />
      </details>
      <details>
        <summary>Time limits {rule.activeFrom || rule.activeUntil || rule.schedule ? "(set)" : ""}</summary>
        <div className="form-row">
          <UtcTimeInput label="Counts from" value={rule.activeFrom} onChange={(v) => set("activeFrom", v)} />
          <UtcTimeInput label="Counts until" value={rule.activeUntil} onChange={(v) => set("activeUntil", v)} />
        </div>
        <p className="muted small">Only on certain days or hours (any window matches):</p>
        <ListInput<WindowDoc>
          items={rule.schedule}
          addLabel="+ Add a window"
          add={() => ({ days: ["fri"] })}
          onChange={(v) => set("schedule", v)}
          render={(w, setW) => <WindowInput value={w} onChange={setW} />}
        />
      </details>
      <details>
        <summary>Caps ({rule.caps?.length ?? 0})</summary>
        <p className="muted small">Points of this rule above a cap are not paid (the ledger records what was withheld).</p>
        <CapsInput caps={rule.caps} onChange={(v) => set("caps", v)} />
      </details>
    </div>
  );
}

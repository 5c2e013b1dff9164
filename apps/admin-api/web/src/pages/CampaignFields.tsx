// Form fields shared by the campaign creation form and the Overview's settings: currencies and schedule.
import { Field } from "../ui";

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

/**
 * Why currency rows cannot be sent, or null: the key -> name map keeps only the last row of a key given twice, and
 * drops a row with a name but no key, so either would lose a currency the operator wrote without a word.
 */
export function currenciesProblem(rows: CurrencyRow[]): string | null {
  const keys = rows.map((r) => r.key.trim());
  const twice = keys.find((k, i) => k !== "" && keys.indexOf(k) !== i);
  if (twice) return `currencies: the key ${twice} is given twice; give each currency its own key`;
  if (rows.some((r) => r.key.trim() === "" && r.name.trim() !== "")) return "currencies: every currency needs a key (e.g. xp)";
  return null;
}

/** Turns currency rows into the API's key -> name map. */
export function currencyMap(rows: CurrencyRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.name.trim()]));
}

/** A date-time input value (UTC, to the minute) as an ISO time, or undefined when empty. */
export function isoOrUndefined(value: string): string | undefined {
  return value ? new Date(`${value}:00Z`).toISOString() : undefined;
}

/**
 * A stored time as the schedule inputs show it: UTC to the minute, like every time the dashboard shows. (Local time
 * shifted by today's offset was an hour off for a date across a daylight-saving change.)
 */
export function utcInputOf(iso: string | null): string {
  return iso ? new Date(iso).toISOString().slice(0, 16) : "";
}

/** A campaign's currencies as edited: the rows and the key of the primary one. */
export interface Currencies {
  rows: CurrencyRow[];
  primary: string;
}

/** The labelled currencies field of a campaign form. */
export function CurrenciesField(props: { hint: string; value: Currencies; onChange: (value: Currencies) => void }) {
  return (
    <Field label="Currencies" hint={props.hint}>
      <CurrencyEditor rows={props.value.rows} primary={props.value.primary} onChange={(rows, primary) => props.onChange({ rows, primary })} />
    </Field>
  );
}

/** When a campaign starts and ends, as two local date-time inputs side by side. */
export function ScheduleFields(props: {
  startsAt: string;
  endsAt: string;
  onStartsAt: (value: string) => void;
  onEndsAt: (value: string) => void;
  /** Marks both labels "(optional)", as the create form does. */
  optional?: boolean;
}) {
  const suffix = props.optional ? " (optional)" : "";
  return (
    <div className="form-row">
      <Field label={`Starts (UTC)${suffix}`}>
        <input type="datetime-local" value={props.startsAt} onChange={(e) => props.onStartsAt(e.target.value)} />
      </Field>
      <Field label={`Ends (UTC)${suffix}`}>
        <input type="datetime-local" value={props.endsAt} onChange={(e) => props.onEndsAt(e.target.value)} />
      </Field>
    </div>
  );
}

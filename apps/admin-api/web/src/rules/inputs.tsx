// The rule editor's inputs: optional text and numbers, UTC times, weekly windows, editable lists.
import type { ReactNode } from "react";
import { WEEKDAYS, type WindowDoc } from "./model";

/** A text input whose empty value means "not set". */
export function TextInput(props: {
  label: string;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
  placeholder?: string;
  hint?: ReactNode;
  testId?: string;
}) {
  return (
    <label className="field">
      <span className="field-label">{props.label}</span>
      <input
        value={props.value ?? ""}
        placeholder={props.placeholder}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : e.target.value)}
      />
      {props.hint && <span className="field-hint">{props.hint}</span>}
    </label>
  );
}

/** A whole-number input whose empty value means "not set". */
export function NumberInput(props: {
  label: string;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  min?: number;
  max?: number;
  hint?: ReactNode;
}) {
  return (
    <label className="field">
      <span className="field-label">{props.label}</span>
      <input
        type="number"
        min={props.min}
        max={props.max}
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : Math.trunc(Number(e.target.value)))}
      />
      {props.hint && <span className="field-hint">{props.hint}</span>}
    </label>
  );
}

/** A UTC date-time input holding an ISO 8601 string ending in Z. */
export function UtcTimeInput(props: { label: string; value: string | undefined; onChange: (v: string | undefined) => void }) {
  return (
    <label className="field">
      <span className="field-label">{props.label} (UTC)</span>
      <input
        type="datetime-local"
        value={props.value ? props.value.slice(0, 16) : ""}
        onChange={(e) => props.onChange(e.target.value ? `${e.target.value}:00Z` : undefined)}
      />
    </label>
  );
}

/** Days of the week and an optional UTC hour range. */
export function WindowInput(props: { value: WindowDoc | undefined; onChange: (w: WindowDoc) => void }) {
  const w = props.value ?? {};
  const toggle = (day: string) => {
    const days = w.days?.includes(day)
      ? w.days.filter((d) => d !== day)
      : [...(w.days ?? []), day].sort((a, b) => WEEKDAYS.indexOf(a as never) - WEEKDAYS.indexOf(b as never));
    const { days: _d, ...rest } = w;
    props.onChange(days.length ? { ...rest, days } : rest);
  };
  const setHours = (from: number | undefined, to: number | undefined) => {
    const { hours: _h, ...rest } = w;
    props.onChange(from === undefined && to === undefined ? rest : { ...rest, hours: { from: from ?? 0, to: to ?? 24 } });
  };
  return (
    <div className="window-input">
      <div className="days">
        {WEEKDAYS.map((d) => (
          <label key={d} className={`day ${w.days?.includes(d) ? "on" : ""}`}>
            <input type="checkbox" checked={w.days?.includes(d) ?? false} onChange={() => toggle(d)} /> {d}
          </label>
        ))}
      </div>
      <div className="form-row">
        <NumberInput label="From hour (UTC)" min={0} max={23} value={w.hours?.from} onChange={(v) => setHours(v, w.hours?.to)} />
        <NumberInput label="To hour (UTC, exclusive)" min={1} max={24} value={w.hours?.to} onChange={(v) => setHours(w.hours?.from, v)} />
      </div>
    </div>
  );
}

/** A list editor: items with a remove button, and an add button. */
export function ListInput<T>(props: {
  items: T[] | undefined;
  add: () => T;
  addLabel: string;
  onChange: (items: T[] | undefined) => void;
  render: (item: T, set: (v: T) => void) => ReactNode;
}) {
  const items = props.items ?? [];
  return (
    <div className="list-input">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items are identified by their position.
        <div className="list-item" key={i}>
          <div className="list-item-body">{props.render(item, (v) => props.onChange(items.map((x, j) => (j === i ? v : x))))}</div>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            onClick={() => {
              const next = items.filter((_, j) => j !== i);
              props.onChange(next.length ? next : undefined);
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="btn btn-small" onClick={() => props.onChange([...items, props.add()])}>
        {props.addLabel}
      </button>
    </div>
  );
}

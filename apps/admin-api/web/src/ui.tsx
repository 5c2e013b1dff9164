// Small shared pieces of every page: data loading and actions, cards, notices, tables, copy buttons, formatting.
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "./api";
import { IDENTITY_TYPES, type UserLabel } from "./types";

// Pages take every shared helper from here; the points format lives apart so it can be tested without React.
export { formatPoints } from "./points";

/**
 * Loads data once (and again on `reload`), keeping the last error for display. `reload` resolves when its answer is
 * in, so a poll can wait for it; only the newest call's answer is kept, so a late one cannot undo a newer one.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saved = useRef(load);
  saved.current = load;
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const call = ++latest.current;
    try {
      const d = await saved.current();
      if (call !== latest.current) return;
      setData(d);
      setError(null);
    } catch (e) {
      if (call === latest.current) setError(messageOf(e));
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what the loader depends on.
  useEffect(() => {
    reload();
    // An answer to the loader of earlier deps (or of a page since left) is dropped.
    return () => {
      latest.current++;
    };
  }, [...deps]);
  return { data, error, reload, setData };
}

/**
 * Calls `fn` every `ms` while `active` is true. A tick is skipped while the call before it is still on its way, so
 * answers come one at a time, in the order they were asked for: a late answer cannot undo a newer one.
 */
export function usePoll(fn: () => void | Promise<void>, ms: number, active: boolean) {
  const saved = useRef(fn);
  saved.current = fn;
  // Outlives the interval: a call still on its way when `active` flips back on holds the next one too.
  const inFlight = useRef(false);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(async () => {
      if (inFlight.current) return;
      inFlight.current = true;
      try {
        await saved.current();
      } finally {
        inFlight.current = false;
      }
    }, ms);
    return () => clearInterval(t);
  }, [ms, active]);
}

/** The message to show for a failed call. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/** Runs an action, tracking busy state and its error. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(messageOf(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** An action's busy state, its error and how to run it, as `useAction` makes them. */
export type Action = ReturnType<typeof useAction>;

/**
 * One current message over a page's actions: `begin`, called as an action starts, drops the outcome told before and
 * every action's error, and `tell` records the new one. A page that kept each action's message until that same
 * action ran again would say two contradictory things: a success beside a later failure.
 */
export function useOutcome<T>(...actions: Pick<Action, "setError">[]) {
  const [said, tell] = useState<T | null>(null);
  const begin = () => {
    tell(null);
    for (const a of actions) a.setError(null);
  };
  return { said, tell, begin };
}

/** A white panel with an optional title and actions. */
export function Card(props: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  return (
    <section className={`card ${props.className ?? ""}`} data-testid={props.testId}>
      {(props.title || props.actions) && (
        <header className="card-head">
          {props.title && <h2>{props.title}</h2>}
          {props.actions && <div className="card-actions">{props.actions}</div>}
        </header>
      )}
      {props.children}
    </section>
  );
}

/** A coloured message; renders nothing when empty. */
export function Notice(props: { kind?: "error" | "success" | "info" | "warn"; children: ReactNode }) {
  if (!props.children) return null;
  return (
    <div className={`notice notice-${props.kind ?? "info"}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** A small coloured label. */
export function Badge(props: { tone?: "green" | "grey" | "amber" | "red" | "blue"; children: ReactNode }) {
  return <span className={`badge badge-${props.tone ?? "grey"}`}>{props.children}</span>;
}

/** A labelled form control with an optional hint. */
export function Field(props: { label: string; hint?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is passed in as a child.
    <label className={`field ${props.wide ? "field-wide" : ""}`}>
      <span className="field-label">{props.label}</span>
      {props.children}
      {props.hint && <span className="field-hint">{props.hint}</span>}
    </label>
  );
}

/** A select of every identity type the API accepts. */
export function IdentityTypeSelect(props: { value: string; onChange: (value: string) => void; name?: string }) {
  return (
    <select name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      {IDENTITY_TYPES.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </select>
  );
}

/** A row's last two cells for something that is live until ended once (a key revoked, an event type retired): its status, and the button that ends it. */
export function EndableCells(props: {
  /** What the red badge says once ended; empty while the thing is live. */
  ended: ReactNode;
  action: string;
  onEnd: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  return (
    <>
      <td>{props.ended ? <Badge tone="red">{props.ended}</Badge> : <Badge tone="green">active</Badge>}</td>
      <td className="right">
        {!props.ended && (
          <button type="button" className={`btn btn-small ${props.danger ? "btn-danger" : "btn-ghost"}`} onClick={props.onEnd} disabled={props.disabled}>
            {props.action}
          </button>
        )}
      </td>
    </>
  );
}

/** A column of a `DataTable`: its heading, or the heading with a class and a key when headings may repeat. */
export type Column = string | { label: string; className?: string; key?: string };

/** A table with one heading row, the rows given as children, and an optional muted line across all columns after them. */
export function DataTable(props: { columns: Column[]; children: ReactNode; note?: ReactNode; testId?: string }) {
  return (
    <table className="table" data-testid={props.testId}>
      <thead>
        <tr>
          {props.columns.map((c) =>
            typeof c === "string" ? (
              <th key={c}>{c}</th>
            ) : (
              <th key={c.key ?? c.label} className={c.className}>
                {c.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {props.children}
        {props.note && (
          <tr>
            <td colSpan={props.columns.length} className="muted">
              {props.note}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** Copies text to the clipboard and says so for a moment. */
export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
    } catch {
      // Older browsers and non-secure origins have no async clipboard; fall back to a selection copy.
      const area = document.createElement("textarea");
      area.value = props.text;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className="btn btn-small" onClick={copy}>
      {copied ? "Copied" : (props.label ?? "Copy")}
    </button>
  );
}

/** A progress bar with a label. */
export function Progress(props: { value: number; label?: string }) {
  const pct = Math.max(0, Math.min(100, Math.round(props.value * 100)));
  return (
    <div className="progress" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
      <div className="progress-bar" style={{ width: `${pct}%` }} />
      <span className="progress-label">{props.label ?? `${pct}%`}</span>
    </div>
  );
}

/** A short, readable time: "2026-03-10 14:05 UTC". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A wallet or id shortened in the middle: 0x5290…9ee7. */
export function shorten(value: string, keep = 6): string {
  return value.length > keep * 2 + 3 ? `${value.slice(0, keep)}…${value.slice(-4)}` : value;
}

/** How operators recognise a user: the name they set, else their first identity, else the id. */
export function labelOf(user: UserLabel & { user_id: string }): string {
  if (user.display_name) return user.display_name;
  if (user.identity?.handle) return `@${user.identity.handle}`;
  if (user.identity) return shorten(user.identity.account_id, 8);
  return shorten(user.user_id, 8);
}

/** Cursor paging of a newest-first list: the cursor of the page shown (undefined: the newest), and its buttons. */
export function usePages() {
  const [pages, setPages] = useState<string[]>([]);
  return {
    before: pages.at(-1),
    /** Back to the newest page (after a filter changes). */
    reset: () => setPages([]),
    /** Newer and Older; `next` is the answer's `next_before`, null on the oldest page. */
    buttons: (next: string | null | undefined) => (
      <div className="form-row">
        <button type="button" className="btn btn-small" disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>
          Newer
        </button>
        <button type="button" className="btn btn-small" disabled={!next} onClick={() => next && setPages([...pages, next])}>
          Older
        </button>
      </div>
    ),
  };
}

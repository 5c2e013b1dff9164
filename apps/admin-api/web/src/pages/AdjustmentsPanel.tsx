// A campaign's operator adjustments: grant or deduct for the user of an identity, upload a list, reverse one.
import { type FormEvent, useRef, useState } from "react";
import { ApiError, api, newIdempotencyKey } from "../api";
import type { Adjustment, Campaign, User } from "../types";
import { Badge, Card, DataTable, Field, formatPoints, formatTime, IdentityTypeSelect, Notice, useAction, useLoad, usePages } from "../ui";
import { ListUpload } from "./ListUpload";

/** Grants, deductions and reversals of a campaign, newest first, with the forms that make them. */
export function AdjustmentsPanel(props: { campaign: Campaign }) {
  const c = props.campaign;
  const path = `/api/campaigns/${c.id}/adjustments`;
  // Paged, newest first: each page's next_before leads to the older ones.
  const pages = usePages();
  const before = pages.before;
  const list = useLoad(
    () => api<{ adjustments: Adjustment[]; next_before: string | null }>("GET", `${path}?limit=100${before ? `&before=${encodeURIComponent(before)}` : ""}`),
    [path, before],
  );
  const next = list.data?.next_before;
  const [type, setType] = useState("EVM_ADDRESS");
  const [account, setAccount] = useState("");
  const [currency, setCurrency] = useState(c.primary_currency);
  const [points, setPoints] = useState("");
  const [reason, setReason] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const readOnly = Boolean(c.archived_at);
  // The Idempotency-Key of each request whose answer never came (a network error or a 5xx), by what it asked:
  // sent again, it is answered with the adjustment that was made instead of making a second.
  const unanswered = useRef(new Map<string, string>());
  const send = async (body: Record<string, string>) => {
    const asked = JSON.stringify(body);
    const key = unanswered.current.get(asked) ?? newIdempotencyKey();
    unanswered.current.set(asked, key);
    try {
      const made = await api<Adjustment>("POST", path, body, { "idempotency-key": key });
      unanswered.current.delete(asked);
      return made;
    } catch (err) {
      // A refusal is final; only an answer that never came keeps the key for the next try.
      if (err instanceof ApiError && err.status > 0 && err.status < 500) unanswered.current.delete(asked);
      throw err;
    }
  };

  const make = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    // A pasted account often carries a space or a line break; the Users tab's search trims it too.
    const accountId = account.trim();
    const made = await action.run(async () => {
      const query = new URLSearchParams({ identity_type: type, account_id: accountId });
      const user = await api<User>("GET", `/api/campaigns/${c.id}/users?${query}`);
      return send({ user_id: user.id, currency, points: points.trim(), reason });
    });
    if (made) {
      setDone(`${made.points} ${made.currency} for ${accountId}: recorded.`);
      setPoints("");
      setReason("");
      list.reload();
    }
  };
  const reverse = async (a: Adjustment) => {
    const why = window.prompt(`Reverse ${a.points} ${a.currency}? Give the reason:`);
    if (!why) return;
    if (await action.run(() => send({ reverses: a.id, reason: why }))) list.reload();
  };

  return (
    <Card title="Adjustments" testId="adjustments">
      <p className="muted">
        Grant points (positive) or claw them back (negative) in a currency, with a reason. An adjustment is kept for good with who made it; it shows in the
        scores at once and stays through every recompute. A mistake is undone by reversing it.
      </p>
      <form className="form-row" onSubmit={make}>
        <Field label="Identity type">
          <IdentityTypeSelect name="adjust-type" value={type} onChange={setType} />
        </Field>
        <Field label="Account" wide>
          <input name="adjust-account" value={account} onChange={(e) => setAccount(e.target.value)} required />
        </Field>
        <Field label="Currency">
          <select name="adjust-currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {Object.entries(c.currencies).map(([key, name]) => (
              <option key={key} value={key}>
                {name} ({key})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Points">
          <input name="adjust-points" value={points} onChange={(e) => setPoints(e.target.value)} placeholder="100 or -25" required />
        </Field>
        <Field label="Reason">
          <input name="adjust-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} required />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={action.busy || readOnly}>
          Record adjustment
        </button>
      </form>
      <Notice kind="error">{action.error ?? list.error}</Notice>
      <Notice kind="success">{done}</Notice>
      <details>
        <summary>Upload adjustments (CSV with the columns identity_type,account_id,currency,points,reason)</summary>
        <ListUpload path={`${path}/csv`} disabled={readOnly} what="adjustments made" name="adjustment-list" onDone={list.reload} keyed />
      </details>
      <DataTable
        columns={["When", "User", "Points", "Reason", "By", ""]}
        note={list.data?.adjustments.length === 0 && "No adjustments yet."}
        testId="adjustment-rows"
      >
        {list.data?.adjustments.map((a) => (
          <tr key={a.id}>
            <td>{formatTime(a.created_at)}</td>
            <td>
              <code title={a.user_id}>{a.user_id.slice(0, 8)}</code>
            </td>
            <td>
              {formatPoints(a.points)} {a.currency} {a.reverses_id && <Badge>reversal of #{a.reverses_id}</Badge>}
              {a.reversed_by_id && <Badge tone="amber">reversed by #{a.reversed_by_id}</Badge>}
            </td>
            <td>{a.reason}</td>
            <td className="small">{a.operator_email}</td>
            <td>
              {!a.reverses_id && !a.reversed_by_id && (
                <button type="button" className="btn btn-small" onClick={() => reverse(a)} disabled={action.busy || readOnly}>
                  Reverse
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {pages.buttons(next)}
    </Card>
  );
}

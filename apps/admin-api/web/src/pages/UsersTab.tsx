// Campaign tab "Users": find a user by an identity, then their details and their ledger.
import { type FormEvent, useEffect, useRef, useState } from "react";
import { api } from "../api";
import { go, hashQuery } from "../router";
import type { Answer, LedgerEntry, Lineage, User } from "../types";
import { Card, type Column, DataTable, Field, formatPoints, formatTime, IdentityTypeSelect, Notice, useAction, useLoad } from "../ui";
import type { CampaignContext } from "./campaign-context";
import { UserDetail } from "./UserDetail";

/** Find a user by any identity (or from the leaderboard), manage identities and see where each point came from. */
export function UsersTab({ ctx }: { ctx: CampaignContext }) {
  const base = `/api/campaigns/${ctx.campaign.id}`;
  const [identityType, setIdentityType] = useState<string>("EVM_ADDRESS");
  const [accountId, setAccountId] = useState("");
  const [userId, setUserId] = useState<string | null>(hashQuery().get("user"));
  const lookup = useAction();
  // Counts the user detail's changes to what the user earned: each one reads the ledger again.
  const [earnedChanges, setEarnedChanges] = useState(0);

  useEffect(() => {
    const on = () => setUserId(hashQuery().get("user"));
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);

  const find = async (e: FormEvent) => {
    e.preventDefault();
    const query = new URLSearchParams({ identity_type: identityType, account_id: accountId.trim() });
    const user = await lookup.run(() => api<User>("GET", `${base}/users?${query}`));
    if (user) go(`/campaigns/${ctx.campaign.id}/users?user=${user.id}`);
  };

  return (
    <>
      <Card title="Find a user">
        <form className="form-row" onSubmit={find}>
          <Field label="Identity type">
            <IdentityTypeSelect name="identity-type" value={identityType} onChange={setIdentityType} />
          </Field>
          <Field label="Account id" wide>
            <input
              name="account-id"
              value={accountId}
              onChange={(e) => setAccountId(e.target.value)}
              placeholder="0x…, e-mail, or numeric provider id"
              required
            />
          </Field>
          <button type="submit" className="btn btn-primary" disabled={lookup.busy}>
            Find
          </button>
        </form>
        <Notice kind="error">{lookup.error}</Notice>
      </Card>
      {userId && <UserDetail key={userId} ctx={ctx} userId={userId} onChanged={() => setEarnedChanges((n) => n + 1)} />}
      {userId && <Ledger key={`ledger-${userId}`} base={base} userId={userId} reads={earnedChanges} />}
    </>
  );
}

type LedgerPage = Answer<"/api/campaigns/{campaign_id}/users/{user_id}/ledger", "get">;

function multipliersText(entry: LedgerEntry): string {
  const list = (entry.lineage as Lineage).multipliers ?? [];
  return list.length ? list.map((m) => `x${m.factor} (${m.source})`).join(", ") : "—";
}

/** The ledger table's columns. */
const LEDGER_COLUMNS: Column[] = [
  "Event happened",
  "Event",
  { label: "Amount", className: "num" },
  "Rule",
  "Multipliers",
  { label: "Points", className: "num" },
  { label: "Capped", className: "num" },
  { label: "Paid", className: "num" },
];

/** When an entry's event happened, and when it was received if that shows differently (a backfilled or late event). */
function EventTimes(props: { occurredAt: string | undefined; receivedAt: string | undefined }) {
  const occurred = formatTime(props.occurredAt ?? props.receivedAt);
  const received = formatTime(props.receivedAt);
  return (
    <>
      {occurred}
      {props.receivedAt && received !== occurred && <div className="muted small">received {received}</div>}
    </>
  );
}

/** The user's ledger entries, newest first, page by page; read again from the newest page whenever `reads` changes. */
function Ledger(props: { base: string; userId: string; reads: number }) {
  const [pages, setPages] = useState<LedgerEntry[][]>([]);
  const [next, setNext] = useState<string | null>(null);
  const first = useLoad(() => api<LedgerPage>("GET", `${props.base}/users/${props.userId}/ledger?limit=50`), [props.base, props.userId, props.reads]);
  // Which reading of the first page the older pages continue: one asked for before the ledger was read again is dropped.
  const reading = useRef(0);
  useEffect(() => {
    if (first.data) {
      reading.current++;
      setPages([first.data.entries]);
      setNext(first.data.next_before);
    }
  }, [first.data]);
  const older = useAction();
  const more = async () => {
    if (!next) return;
    const of = reading.current;
    const page = await older.run(() => api<LedgerPage>("GET", `${props.base}/users/${props.userId}/ledger?limit=50&before=${next}`));
    if (!page || of !== reading.current) return;
    setPages((p) => [...p, page.entries]);
    setNext(page.next_before);
  };
  const entries = pages.flat();

  return (
    <Card title="Where the points came from" testId="ledger">
      <p className="muted small">
        Every award of the rules in force{first.data?.rule_version ? ` (v${first.data.rule_version})` : ""}: which event, which rule, which multipliers, and
        what a cap withheld.
      </p>
      <Notice kind="error">{first.error}</Notice>
      <DataTable columns={LEDGER_COLUMNS} note={first.data && entries.length === 0 && "No points yet."}>
        {entries.map((e) => (
          <tr key={e.id}>
            <td className="nowrap">
              <EventTimes occurredAt={e.event.occurred_at} receivedAt={e.event.received_at} />
            </td>
            <td>
              {e.event.event_type ?? "—"}
              <div className="muted small">
                {e.event.identity_type} · {e.event.source}
              </div>
            </td>
            <td className="num">{e.event.amount ? formatPoints(e.event.amount) : "—"}</td>
            <td>
              <code>{e.rule_id}</code> v{e.rule_version}
              <div className="muted small">{e.kind}</div>
            </td>
            <td className="small">{multipliersText(e)}</td>
            <td className="num">{formatPoints(e.points)}</td>
            <td className="num">{e.capped_points === "0" ? "—" : formatPoints(e.capped_points)}</td>
            <td className="num">
              <strong>{formatPoints(e.paid)}</strong> {e.currency}
            </td>
          </tr>
        ))}
      </DataTable>
      <Notice kind="error">{older.error && `Older entries could not be loaded: ${older.error}`}</Notice>
      {next && (
        <button type="button" className="btn btn-small" onClick={more} disabled={older.busy}>
          Older entries
        </button>
      )}
    </Card>
  );
}

// Exclusions of a campaign or of the whole project: add one, upload a list, lift.
import { type FormEvent, useState } from "react";
import { api } from "../api";
import type { Exclusion } from "../types";
import { Badge, Card, DataTable, Field, formatTime, IdentityTypeSelect, Notice, useAction, useLoad } from "../ui";
import { ListUpload } from "./ListUpload";

/** The exclusions of `base` (`/api/campaigns/<id>` or `/api` for the project), with forms to add and lift them. */
export function ExclusionsPanel(props: { base: string; readOnly?: boolean; scope: "campaign" | "project" }) {
  const path = `${props.base}/exclusions`;
  const list = useLoad(() => api<{ exclusions: Exclusion[]; total: number }>("GET", path), [path]);
  const [type, setType] = useState("EVM_ADDRESS");
  const [account, setAccount] = useState("");
  const [reason, setReason] = useState("");
  const [listReason, setListReason] = useState("");
  const action = useAction();

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (await action.run(() => api("POST", path, { identity_type: type, account_id: account.trim(), reason }))) {
      setAccount("");
      setReason("");
      list.reload();
    }
  };
  const lift = async (x: Exclusion) => {
    if (!window.confirm(`Lift the exclusion of ${x.account_id ?? x.user_id}? Their logged events earn again after the recompute.`)) return;
    if (await action.run(() => api("DELETE", `${x.scope === "project" ? "/api" : props.base}/exclusions/${x.id}`))) list.reload();
  };

  return (
    <Card title={props.scope === "project" ? "Excluded in every campaign of the project" : "Exclusions"} testId={`exclusions-${props.scope}`}>
      <p className="muted">
        An excluded identity (and the user who owns it) earns nothing and is absent from the leaderboard at once; its events are still accepted and logged, so
        the sender notices nothing. Scores are then recomputed from the log without them. Lifting an exclusion recomputes them back.
      </p>
      <form className="form-row" onSubmit={add}>
        <Field label="Identity type">
          <IdentityTypeSelect name="exclude-type" value={type} onChange={setType} />
        </Field>
        <Field label="Account" wide>
          <input name="exclude-account" value={account} onChange={(e) => setAccount(e.target.value)} placeholder="0x… or e-mail or provider id" required />
        </Field>
        <Field label="Reason">
          <input name="exclude-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} placeholder="sybil cluster" required />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={action.busy || props.readOnly}>
          Exclude
        </button>
      </form>
      <Notice kind="error">{action.error ?? list.error}</Notice>
      <details>
        <summary>Upload a list (CSV with the columns identity_type,account_id and optionally reason)</summary>
        <Field label="Reason for rows without one">
          <input name="exclude-list-reason" value={listReason} onChange={(e) => setListReason(e.target.value)} maxLength={500} placeholder="sanctions list" />
        </Field>
        <ListUpload
          path={`${path}/csv`}
          query={listReason.trim() ? { reason: listReason.trim() } : {}}
          disabled={props.readOnly}
          what="identities excluded"
          name="exclusion-list"
          onDone={list.reload}
        />
      </details>
      <DataTable columns={["Identity or user", "Scope", "Reason", "Since", ""]} note={list.data?.total === 0 && "Nobody is excluded."} testId="exclusion-rows">
        {list.data?.exclusions.map((x) => (
          <tr key={x.id}>
            <td>
              {x.account_id ? (
                <>
                  <code>{x.account_id}</code> <span className="muted small">{x.identity_type}</span>
                </>
              ) : (
                <>
                  user <code>{x.user_id}</code>
                </>
              )}
            </td>
            <td>
              <Badge tone={x.scope === "project" ? "blue" : "grey"}>{x.scope}</Badge> {x.source === "csv" && <Badge>list</Badge>}
            </td>
            <td>{x.reason}</td>
            <td>{formatTime(x.created_at)}</td>
            <td>
              {(props.scope === "project" || x.scope === "campaign") && (
                <button type="button" className="btn btn-small" onClick={() => lift(x)} disabled={action.busy || props.readOnly}>
                  Lift
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {list.data && list.data.total > list.data.exclusions.length && (
        <p className="muted small">
          Showing the newest {list.data.exclusions.length} of {list.data.total}.
        </p>
      )}
    </Card>
  );
}

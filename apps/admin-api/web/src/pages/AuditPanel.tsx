// The audit trail of a campaign or the project: who did what, when, and what it was before and after.
import { useState } from "react";
import { api } from "../api";
import type { AuditEntry } from "../types";
import { Card, DataTable, formatTime, Notice, useLoad, usePages } from "../ui";

const ACTIONS = [
  "campaign.create",
  "campaign.update",
  "campaign.archive",
  "campaign.restore",
  "campaign.bad-words",
  "api-key.create",
  "api-key.update",
  "api-key.revoke",
  "event-type.create",
  "event-type.retire",
  "rule-version.create",
  "rule-version.activate",
  "user.update",
  "identity.link",
  "identity.move",
  "identity.update",
  "identity.unlink",
  "csv-import.events",
  "exclusion.create",
  "exclusion.lift",
  "exclusion.import",
  "adjustment.create",
  "adjustment.import",
  "reward.create",
  "reward.update",
  "reward.codes-upload",
  "redemption.fulfil",
  "redemption.reject",
  "claim-epoch.close",
  "claim-epoch.publish",
  "operator.add",
  "operator.remove",
];

const shown = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v, null, 1));

/** The trail at `path` (`/api/audit` or `/api/campaigns/<id>/audit`), newest first, filterable by action, paged. */
export function AuditPanel(props: { path: string; title: string }) {
  const [action, setAction] = useState("");
  const pages = usePages();
  const before = pages.before;
  const query = new URLSearchParams({ limit: "50", ...(action ? { action } : {}), ...(before ? { before } : {}) });
  const trail = useLoad(() => api<{ entries: AuditEntry[]; next_before: string | null }>("GET", `${props.path}?${query}`), [props.path, action, before]);
  const next = trail.data?.next_before;

  return (
    <Card title={props.title} testId="audit">
      <p className="muted">Every change an operator made that users can see. Entries cannot be edited or removed.</p>
      <div className="form-row">
        <select
          name="audit-action"
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            pages.reset();
          }}
        >
          <option value="">all actions</option>
          {ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      <Notice kind="error">{trail.error}</Notice>
      <DataTable
        columns={["When", "Who", "Action", "What", "Before", "After"]}
        note={trail.data?.entries.length === 0 && "Nothing recorded yet."}
        testId="audit-rows"
      >
        {trail.data?.entries.map((e) => (
          <tr key={e.id}>
            <td>{formatTime(e.created_at)}</td>
            <td className="small">{e.operator_email}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td className="small">
              {e.campaign_id && <div className="muted">{e.campaign_id}</div>}
              {e.target}
            </td>
            <td>
              <pre className="code small audit-json">{shown(e.before)}</pre>
            </td>
            <td>
              <pre className="code small audit-json">{shown(e.after)}</pre>
            </td>
          </tr>
        ))}
      </DataTable>
      {pages.buttons(next)}
    </Card>
  );
}

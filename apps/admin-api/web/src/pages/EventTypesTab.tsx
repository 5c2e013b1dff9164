// Campaign tab "Event types": register types (each with its reg_event_id) and retire them.
import { type FormEvent, useState } from "react";
import { api } from "../api";
import type { EventType } from "../types";
import { Card, CopyButton, DataTable, EndableCells, Field, formatTime, Notice, useAction } from "../ui";
import type { CampaignContext } from "./campaign-context";

/** Event types: register (-> reg_event_id to copy), list, retire. */
export function EventTypesTab({ ctx }: { ctx: CampaignContext }) {
  const path = `/api/campaigns/${ctx.campaign.id}/event-types`;
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<EventType | null>(null);
  const action = useAction();
  // Retiring fails in the list, beside the button, not above it in the form.
  const retireAction = useAction();

  const register = async (e: FormEvent) => {
    e.preventDefault();
    const type = await action.run(() => api<EventType>("POST", path, { name, ...(description ? { description } : {}) }));
    if (type) {
      setCreated(type);
      setName("");
      setDescription("");
      ctx.reloadEventTypes();
    }
  };
  const retire = async (type: EventType) => {
    if (!window.confirm(`Retire ${type.name}? Events of this type will be refused from now on. This cannot be undone.`)) return;
    await retireAction.run(() => api("POST", `${path}/${type.reg_event_id}/retire`));
    ctx.reloadEventTypes();
  };

  return (
    <>
      <Card title="Register an event type">
        <p className="muted">
          Every kind of activity you send (a trade, a login, a quest) is registered once. Events carry its <code>reg_event_id</code>, and rules turn them into
          points.
        </p>
        <form className="form-row" onSubmit={register}>
          <Field label="Name">
            <input name="event-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="trade_volume" required />
          </Field>
          <Field label="Description (optional)" wide>
            <input value={description} onChange={(e) => setDescription(e.target.value)} placeholder="Swap volume in USD" />
          </Field>
          <button type="submit" className="btn btn-primary" disabled={action.busy || Boolean(ctx.campaign.archived_at)}>
            Register
          </button>
        </form>
        <Notice kind="error">{action.error ?? ctx.eventTypesError}</Notice>
        {created && (
          <Notice kind="success">
            Registered <strong>{created.name}</strong>: reg_event_id <code data-testid="new-reg-event-id">{created.reg_event_id}</code>{" "}
            <CopyButton text={created.reg_event_id} />
          </Notice>
        )}
      </Card>
      <Card title="Event types">
        <DataTable
          columns={["Name", "reg_event_id", "Registered", "Status", ""]}
          note={ctx.eventTypesLoaded && ctx.eventTypes.length === 0 && "No event types yet."}
        >
          {ctx.eventTypes.map((t) => (
            <tr key={t.reg_event_id}>
              <td>
                <strong>{t.name}</strong>
                {t.description && <div className="muted small">{t.description}</div>}
              </td>
              <td>
                <code>{t.reg_event_id}</code> <CopyButton text={t.reg_event_id} />
              </td>
              <td>{formatTime(t.created_at)}</td>
              <EndableCells
                ended={t.retired_at && "retired"}
                action="Retire"
                onEnd={() => retire(t)}
                disabled={retireAction.busy || Boolean(ctx.campaign.archived_at)}
              />
            </tr>
          ))}
        </DataTable>
        <Notice kind="error">{retireAction.error}</Notice>
      </Card>
    </>
  );
}

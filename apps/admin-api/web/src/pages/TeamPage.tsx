// The project's operators (add, remove) and changing your own password.
import { type FormEvent, useState } from "react";
import { api, setSessionToken } from "../api";
import type { Answer, Operator } from "../types";
import { type Action, Card, DataTable, Field, formatTime, Notice, useAction, useLoad, useOutcome } from "../ui";

/** Where on the Team page an action's outcome is told: the card of the button that started it. */
type Where = "operators" | "add" | "password";

/** The newest action's success message and the card it belongs in. */
interface Said {
  where: Where;
  text: string;
}

/** The project's operators: adding and removing them, and changing your own password. */
export function TeamPage() {
  const operators = useLoad(() => api<Answer<"/api/operators", "get">>("GET", "/api/operators"), []);
  const me = useLoad(() => api<Answer<"/api/me", "get">>("GET", "/api/me"), []);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const addAction = useAction();
  const removeAction = useAction();
  const passwordAction = useAction();
  // The page tells one thing at a time: the outcome of the newest action, in the card of the button that started it.
  // A removal told beside the list while an add is told below its form would leave the page saying two things.
  const { said, tell, begin } = useOutcome<Said>(addAction, removeAction, passwordAction);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    begin();
    // Adding someone who is already an operator answers their account as it is: the password was not changed. The
    // list is read again first, since another tab or colleague may have added them since this page loaded.
    const added = await addAction.run(async () => {
      const before = await api<Answer<"/api/operators", "get">>("GET", "/api/operators");
      return { before, created: await api<Answer<"/api/operators", "post">>("POST", "/api/operators", { email, password }) };
    });
    if (added) {
      const { before, created } = added;
      const known = before.operators.some((o) => o.id === created.id);
      tell({
        where: "add",
        text: known
          ? `${created.email} is already an operator of this project; their password is unchanged.`
          : `${created.email} can now sign in with the password you chose. Share it with them privately.`,
      });
      setEmail("");
      setPassword("");
      operators.reload();
    }
  };
  const remove = async (o: Operator) => {
    if (!window.confirm(`Remove ${o.email}? They are signed out at once and can no longer sign in to this project.`)) return;
    begin();
    if (await removeAction.run(() => api("DELETE", `/api/operators/${o.id}`))) tell({ where: "operators", text: `${o.email} was removed.` });
    operators.reload();
  };
  const saidIn = (where: Where) => (said?.where === where ? said.text : null);

  return (
    <div className="page">
      <h1>Team</h1>
      <p className="muted">Everyone here signs in to this project and sees all of its campaigns.</p>
      <Card title="Operators">
        <DataTable columns={["E-mail", "Added", ""]}>
          {operators.data?.operators.map((o) => (
            <tr key={o.id}>
              <td>{o.email}</td>
              <td>{formatTime(o.created_at)}</td>
              <td className="right">
                {o.id === me.data?.operator.id ? (
                  <span className="muted">you</span>
                ) : (
                  <button type="button" className="btn btn-small btn-danger" onClick={() => remove(o)} disabled={removeAction.busy}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
        <Notice kind="error">{removeAction.error ?? operators.error}</Notice>
        <Notice kind="success">{saidIn("operators")}</Notice>
      </Card>
      <Card title="Add an operator">
        <form className="form-row" onSubmit={add}>
          <Field label="E-mail">
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </Field>
          <Field label="Initial password" hint="At least 12 characters.">
            <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} minLength={12} required />
          </Field>
          <button type="submit" className="btn btn-primary" disabled={addAction.busy}>
            Add operator
          </button>
        </form>
        <Notice kind="error">{addAction.error}</Notice>
        <Notice kind="success">{saidIn("add")}</Notice>
      </Card>
      <PasswordCard action={passwordAction} done={saidIn("password")} begin={begin} onChanged={(text) => tell({ where: "password", text })} />
    </div>
  );
}

/** Changing the signed-in operator's password; every other session of theirs ends. */
function PasswordCard(props: { action: Action; done: string | null; begin: () => void; onChanged: (message: string) => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const { action } = props;

  const change = async (e: FormEvent) => {
    e.preventDefault();
    props.begin();
    const changed = await action.run(() =>
      api<Answer<"/api/me/password", "post">>("POST", "/api/me/password", { current_password: current, new_password: next }),
    );
    if (changed) {
      // The old token stopped working with the change; this tab goes on with the new one.
      setSessionToken(changed.token);
      setCurrent("");
      setNext("");
      props.onChanged("Password changed. You stay signed in here; every other session of yours was signed out.");
    }
  };

  return (
    <Card title="Your password">
      <form className="form-row" onSubmit={change}>
        <Field label="Current password">
          <PasswordInput name="current-password" value={current} onChange={setCurrent} />
        </Field>
        <Field label="New password" hint="At least 12 characters.">
          <PasswordInput name="new-password" value={next} onChange={setNext} minLength={12} />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={action.busy}>
          Change password
        </button>
      </form>
      <Notice kind="error">{action.error}</Notice>
      <Notice kind="success">{props.done}</Notice>
    </Card>
  );
}

/** A required password input whose name is also its autocomplete hint (current-password, new-password). */
function PasswordInput(props: { name: "current-password" | "new-password"; value: string; onChange: (value: string) => void; minLength?: number }) {
  return (
    <input
      type="password"
      name={props.name}
      autoComplete={props.name}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      minLength={props.minLength}
      required
    />
  );
}

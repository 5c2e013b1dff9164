import { type FormEvent, useState } from "react";
import { api } from "../api";
import { Card, DataTable, Field, formatTime, Notice, useAction, useLoad } from "../ui";

/** The project's operators, and adding one. */
export function TeamPage() {
  const operators = useLoad(() => api<{ operators: { id: string; email: string; created_at: string }[] }>("GET", "/api/operators"), []);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const created = await action.run(() => api<{ email: string }>("POST", "/api/operators", { email, password }));
    if (created) {
      setDone(`${created.email} can now sign in with the password you chose. Share it with them privately.`);
      setEmail("");
      setPassword("");
      operators.reload();
    }
  };

  return (
    <div className="page">
      <h1>Team</h1>
      <p className="muted">Everyone here signs in to this project and sees all of its campaigns.</p>
      <Card title="Operators">
        <DataTable columns={["E-mail", "Added"]}>
          {operators.data?.operators.map((o) => (
            <tr key={o.id}>
              <td>{o.email}</td>
              <td>{formatTime(o.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      </Card>
      <Card title="Add an operator">
        <form className="form-row" onSubmit={add}>
          <Field label="E-mail">
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </Field>
          <Field label="Initial password" hint="At least 12 characters.">
            <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} minLength={12} required />
          </Field>
          <button type="submit" className="btn btn-primary" disabled={action.busy}>
            Add operator
          </button>
        </form>
        <Notice kind="error">{action.error}</Notice>
        <Notice kind="success">{done}</Notice>
      </Card>
    </div>
  );
}

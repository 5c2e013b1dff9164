// The sign-in page.
import { type FormEvent, useState } from "react";
import { ApiError, api, setSessionToken } from "../api";
import type { Answer } from "../types";
import { Notice, useAction } from "../ui";

/** E-mail and password in, a session for this browser tab out. */
export function SignInPage(props: { onSignedIn: () => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Asked for only when the e-mail and password open accounts in several projects (the answer names them).
  const [projectId, setProjectId] = useState<string | null>(null);
  const action = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { email, password, ...(projectId ? { project_id: projectId.trim() } : {}) };
    const res = await action.run(async () => {
      try {
        return await api<Answer<"/api/auth/login", "post">>("POST", "/api/auth/login", body);
      } catch (err) {
        if (err instanceof ApiError && err.code === "project-choice-required" && projectId === null) setProjectId("");
        throw err;
      }
    });
    if (res) {
      setSessionToken(res.token);
      props.onSignedIn();
    }
  };

  return (
    <div className="signin">
      <form className="card signin-card" onSubmit={submit}>
        <div className="brand brand-large">
          <span className="brand-mark">◆</span> Pointwise
        </div>
        <p className="muted">Sign in to manage your campaigns.</p>
        <label className="field">
          <span className="field-label">E-mail</span>
          <input name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <label className="field">
          <span className="field-label">Password</span>
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {projectId !== null && (
          <label className="field">
            <span className="field-label">Project id</span>
            <input name="project_id" value={projectId} onChange={(e) => setProjectId(e.target.value)} required />
          </label>
        )}
        <Notice kind="error">{action.error}</Notice>
        <button type="submit" className="btn btn-primary" disabled={action.busy}>
          {action.busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </div>
  );
}

// One user of a campaign: scores, identities (link, unlink, X username), display name and referrer.
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../api";
import type { Answer, RecomputeJob, User } from "../types";
import { Card, Field, formatPoints, formatTime, IdentityTypeSelect, Notice, shorten, useAction, useLoad } from "../ui";
import type { CampaignContext } from "./campaign-context";

/** One user: scores, identities (link, unlink, X username), display name and referrer. */
export function UserDetail({ ctx, userId }: { ctx: CampaignContext; userId: string }) {
  const path = `/api/campaigns/${ctx.campaign.id}/users/${userId}`;
  const user = useLoad(() => api<User>("GET", path), [path]);
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [referrer, setReferrer] = useState("");
  const [linkType, setLinkType] = useState<string>("EMAIL");
  const [linkAccount, setLinkAccount] = useState("");
  const [linkHandle, setLinkHandle] = useState("");
  const readOnly = Boolean(ctx.campaign.archived_at);

  if (user.error) return <Notice kind="error">{user.error}</Notice>;
  const u = user.data;
  if (!u) return null;
  const recomputeNote = (job: RecomputeJob | null) => (job ? " Scores are being recomputed in the background." : "");

  const saveName = async (e: FormEvent) => {
    e.preventDefault();
    const value = (name ?? u.display_name ?? "").trim();
    if (await action.run(() => api("PATCH", path, { display_name: value || null }))) {
      setNote("Display name saved.");
      setName(null);
      user.reload();
    }
  };
  const saveReferrer = async (e: FormEvent) => {
    e.preventDefault();
    if (!window.confirm(`Set ${referrer.trim()} as this user's referrer? A referrer is set once and cannot be changed.`)) return;
    if (await action.run(() => api("PATCH", path, { referrer_id: referrer.trim() }))) {
      setNote("Referrer set.");
      user.reload();
    }
  };
  const link = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      identity_type: linkType,
      account_id: linkAccount.trim(),
      ...(linkType === "X_PROVIDER_ID" && linkHandle.trim() ? { handle: linkHandle.trim() } : {}),
    };
    type Linked = Answer<"/api/campaigns/{campaign_id}/users/{user_id}/identities", "post">;
    // An identity another user holds moves here with its events and their points, and unlinking it later makes a new
    // user, not the old one again: the service refuses it with identity-held unless asked to move, so ask first.
    const res = await action.run(async () => {
      try {
        return await api<Linked>("POST", `${path}/identities`, body);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === "identity-held")) throw err;
        const query = new URLSearchParams({ identity_type: body.identity_type, account_id: body.account_id });
        const holder = await api<User>("GET", `/api/campaigns/${ctx.campaign.id}/users?${query}`);
        if (!window.confirm(`This identity belongs to user ${shorten(holder.id, 8)}. Move it, with its events and their points, to this user?`))
          return undefined;
        // Pinned to the holder the operator agreed to: if it changed hands meanwhile, the service asks again.
        return api<Linked>("POST", `${path}/identities`, { ...body, move: true, move_from_user_id: holder.id });
      }
    });
    if (res) {
      setNote(
        res.moved_from_user_id ? `The identity belonged to another user and was merged into this one.${recomputeNote(res.recompute_job)}` : "Identity linked.",
      );
      setLinkAccount("");
      setLinkHandle("");
      user.reload();
    }
  };
  const unlink = async (identityId: string) => {
    if (!window.confirm("Unlink this identity? It becomes a separate user, taking its events (and their points) with it.")) return;
    const res = await action.run(() =>
      api<Answer<"/api/campaigns/{campaign_id}/users/{user_id}/identities/{identity_id}", "delete">>("DELETE", `${path}/identities/${identityId}`),
    );
    if (res) {
      setNote(`Identity unlinked.${recomputeNote(res.recompute_job)}`);
      user.reload();
    }
  };
  const setHandle = async (identityId: string, current: string | null) => {
    const handle = window.prompt("X username (without @; empty to clear)", current ?? "");
    if (handle === null) return;
    if (await action.run(() => api("PATCH", `${path}/identities/${identityId}`, { handle: handle.trim() || null }))) user.reload();
  };

  return (
    <Card title={u.display_name ?? (u.identities[0] ? shorten(u.identities[0].account_id, 10) : "User")} testId="user-detail">
      {u.excluded && (
        <Notice kind="warn">
          <span data-testid="user-excluded">Excluded</span>: this user (or one of their identities) is excluded. They earn nothing and appear on no leaderboard
          (see Fair play).
        </Notice>
      )}
      <div className="muted small">
        User id <code>{u.id}</code> · first seen {formatTime(u.created_at)}
      </div>
      <div className="score-tiles">
        {u.scores.map((s) => (
          <div key={s.currency} className="score-tile">
            <div className="muted small">{ctx.campaign.currencies[s.currency] ?? s.currency}</div>
            <div className="score-total">{formatPoints(s.total)}</div>
            <div className="muted small">
              own {formatPoints(s.score)} · referral {formatPoints(s.referral_score)}
              {s.tier ? ` · ${s.tier}` : ""}
            </div>
          </div>
        ))}
        {u.scores.length === 0 && <span className="muted">No points yet.</span>}
      </div>
      <Notice kind="success">{note}</Notice>
      <Notice kind="error">{action.error}</Notice>
      <h3>Identities</h3>
      <table className="table">
        <tbody>
          {u.identities.map((i) => (
            <tr key={i.id}>
              <td>{i.identity_type}</td>
              <td>
                <code>{i.account_id}</code>
                {i.handle && <span className="muted"> @{i.handle}</span>}
              </td>
              <td className="right nowrap">
                {i.identity_type === "X_PROVIDER_ID" && (
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setHandle(i.id, i.handle)} disabled={readOnly}>
                    X username
                  </button>
                )}
                {u.identities.length > 1 && (
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => unlink(i.id)} disabled={readOnly}>
                    Unlink
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="form-row" onSubmit={link}>
        <Field label="Link identity">
          <IdentityTypeSelect value={linkType} onChange={setLinkType} />
        </Field>
        <Field label="Account id" wide>
          <input value={linkAccount} onChange={(e) => setLinkAccount(e.target.value)} required />
        </Field>
        {linkType === "X_PROVIDER_ID" && (
          <Field label="X username">
            <input value={linkHandle} onChange={(e) => setLinkHandle(e.target.value)} placeholder="username" />
          </Field>
        )}
        <button type="submit" className="btn" disabled={action.busy || readOnly}>
          Link
        </button>
      </form>
      <div className="grid-2">
        <form className="stack" onSubmit={saveName}>
          <Field label="Display name" hint="Hidden on the public board when it contains a bad word.">
            <input value={name ?? u.display_name ?? ""} onChange={(e) => setName(e.target.value)} maxLength={64} />
          </Field>
          <div>
            <button type="submit" className="btn btn-small" disabled={action.busy || readOnly}>
              Save name
            </button>
          </div>
        </form>
        {u.referrer_id ? (
          <div className="stack">
            <span className="field-label">Referred by</span>
            <a href={`#/campaigns/${ctx.campaign.id}/users?user=${u.referrer_id}`}>
              <code>{u.referrer_id}</code>
            </a>
            <span className="muted small">since {formatTime(u.referred_at)}; a referral link never changes.</span>
          </div>
        ) : (
          <form className="stack" onSubmit={saveReferrer}>
            <Field label="Referrer (user id)" hint="Set once: the referrer earns a share of this user's points from now on.">
              <input value={referrer} onChange={(e) => setReferrer(e.target.value)} placeholder="uuid of the referrer" required />
            </Field>
            <div>
              <button type="submit" className="btn btn-small" disabled={action.busy || readOnly}>
                Set referrer
              </button>
            </div>
          </form>
        )}
      </div>
    </Card>
  );
}

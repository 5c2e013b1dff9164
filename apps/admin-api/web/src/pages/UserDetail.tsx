// One user of a campaign: scores, identities (link, unlink, X username), display name and referrer.
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../api";
import type { Answer, RecomputeJob, User } from "../types";
import { Card, Field, formatPoints, formatTime, IdentityTypeSelect, Notice, shorten, useAction, useLoad, useOutcome } from "../ui";
import type { CampaignContext } from "./campaign-context";
import { RecomputeNotice, useFollowedRecompute } from "./FollowedRecompute";

type Linked = Answer<"/api/campaigns/{campaign_id}/users/{user_id}/identities", "post">;

/**
 * One user: scores, identities (link, unlink, X username), display name and referrer. `onChanged` is called when
 * what the user earned may have changed (an identity linked, moved or unlinked, and again once its recompute is done).
 */
export function UserDetail({ ctx, userId, onChanged }: { ctx: CampaignContext; userId: string; onChanged: () => void }) {
  const path = `/api/campaigns/${ctx.campaign.id}/users/${userId}`;
  const user = useLoad(() => api<User>("GET", path), [path]);
  const action = useAction();
  const reread = () => {
    user.reload();
    onChanged();
  };
  const recompute = useFollowedRecompute(ctx.campaign.id, reread);
  // The page tells one thing at a time: the newest action's outcome, and the recompute it queued, whose progress is
  // told after it. A failure after a success (or a success after a failure) replaces it rather than joining it.
  const { said: note, tell, begin } = useOutcome<{ text: string; jobId: string | null }>(action);
  const [name, setName] = useState<string | null>(null);
  const [referrer, setReferrer] = useState("");
  const [linkType, setLinkType] = useState<string>("EMAIL");
  const [linkAccount, setLinkAccount] = useState("");
  const [linkHandle, setLinkHandle] = useState("");
  const readOnly = Boolean(ctx.campaign.archived_at);

  if (user.error) return <Notice kind="error">{user.error}</Notice>;
  const u = user.data;
  if (!u) return null;
  // An identity linked, moved or unlinked changes the identities at once, and the scores and the ledger below once
  // the recompute it queued (if any) is done: the page reads them now and again then, without a reload.
  const done = (text: string, job: RecomputeJob | null) => {
    tell({ text, jobId: job?.id ?? null });
    if (job) recompute.follow(job);
    reread();
  };

  const saveName = async (e: FormEvent) => {
    e.preventDefault();
    begin();
    const value = (name ?? u.display_name ?? "").trim();
    if (await action.run(() => api("PATCH", path, { display_name: value || null }))) {
      tell({ text: "Display name saved.", jobId: null });
      setName(null);
      user.reload();
    }
  };
  const saveReferrer = async (e: FormEvent) => {
    e.preventDefault();
    if (!window.confirm(`Set ${referrer.trim()} as this user's referrer? A referrer is set once and cannot be changed.`)) return;
    begin();
    if (await action.run(() => api("PATCH", path, { referrer_id: referrer.trim() }))) {
      tell({ text: "Referrer set.", jobId: null });
      user.reload();
    }
  };
  const link = async (e: FormEvent) => {
    e.preventDefault();
    begin();
    const body = {
      identity_type: linkType,
      account_id: linkAccount.trim(),
      ...(linkType === "X_PROVIDER_ID" && linkHandle.trim() ? { handle: linkHandle.trim() } : {}),
    };
    const identities = `${path}/identities`;
    const isHeld = (err: unknown) => err instanceof ApiError && err.code === "identity-held";
    // An identity another user holds moves here with its events and their points, and unlinking it later makes a new
    // user, not the old one again: the service refuses it with identity-held unless asked to move, so ask first.
    // The move is pinned to the holder the operator agreed to; when it changed hands meanwhile the service refuses it
    // again, and the operator is asked about the new holder rather than shown the service's advice to send "move".
    const askAndMove = async (changedHands: boolean): Promise<Linked | undefined> => {
      const query = new URLSearchParams({ identity_type: body.identity_type, account_id: body.account_id });
      const holder = await api<User>("GET", `/api/campaigns/${ctx.campaign.id}/users?${query}`);
      // Moved here meanwhile: linking it again answers that it is this user's.
      if (holder.id === userId) return api<Linked>("POST", identities, body);
      const whose = `user ${shorten(holder.id, 8)}`;
      const question = changedHands
        ? `Since you were asked, this identity moved to ${whose}. Move it from that user, with its events and their points, to this user?`
        : `This identity belongs to ${whose}. Move it, with its events and their points, to this user?`;
      if (!window.confirm(question)) return undefined;
      try {
        return await api<Linked>("POST", identities, { ...body, move: true, move_from_user_id: holder.id });
      } catch (err) {
        if (!isHeld(err)) throw err;
        return askAndMove(true);
      }
    };
    const res = await action.run(async () => {
      try {
        return await api<Linked>("POST", identities, body);
      } catch (err) {
        if (!isHeld(err)) throw err;
        return askAndMove(false);
      }
    });
    if (res) {
      done(res.moved_from_user_id ? "The identity belonged to another user and was merged into this one." : "Identity linked.", res.recompute_job);
      setLinkAccount("");
      setLinkHandle("");
    }
  };
  const unlink = async (identityId: string) => {
    if (!window.confirm("Unlink this identity? It becomes a separate user, taking its events (and their points) with it.")) return;
    begin();
    const res = await action.run(() =>
      api<Answer<"/api/campaigns/{campaign_id}/users/{user_id}/identities/{identity_id}", "delete">>("DELETE", `${path}/identities/${identityId}`),
    );
    if (res) done("Identity unlinked.", res.recompute_job);
  };
  const setHandle = async (identityId: string, current: string | null) => {
    const handle = window.prompt("X username (without @; empty to clear)", current ?? "");
    if (handle === null) return;
    begin();
    const value = handle.trim() || null;
    if (await action.run(() => api("PATCH", `${path}/identities/${identityId}`, { handle: value }))) {
      tell({ text: value ? "X username saved." : "X username cleared.", jobId: null });
      user.reload();
    }
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
      <Notice kind="success">{note?.text}</Notice>
      {note?.jobId && recompute.job?.id === note.jobId && <RecomputeNotice job={recompute.job} error={recompute.error} />}
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

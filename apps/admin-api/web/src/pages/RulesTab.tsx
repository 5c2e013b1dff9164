// Campaign tab "Rules": edit, check, save, dry-run and activate rule versions, and follow the recompute.
import { useEffect, useRef, useState } from "react";
import { api } from "../api";
import { describePath, editable, type RuleDocument, starterDocument } from "../rules/model";
import { RuleForm } from "../rules/RuleForm";
import type { Answer, DryRun, RecomputeJob, RuleIssue, RuleVersion, RuleVersionWithDocument } from "../types";
import { Badge, Card, DataTable, formatPoints, formatTime, labelOf, messageOf, Notice, Progress, useAction, useLoad, usePoll } from "../ui";
import type { CampaignContext } from "./campaign-context";

const STATUS_TONE = { active: "green", draft: "blue", superseded: "grey" } as const;

/** A recompute's progress, and why it could not be read again (`error`) while the page keeps asking. */
function JobProgress({ job, error }: { job: RecomputeJob; error: string | null }) {
  const label =
    job.status === "queued"
      ? "queued: waiting for the scoring worker"
      : job.status === "running"
        ? `recomputing ${job.events_done} of ${job.events_total} events`
        : job.status === "done"
          ? "done: the new rules are live"
          : `failed: ${job.error ?? "see the worker log"}`;
  return (
    <div data-testid="activation-progress">
      <Progress value={job.progress} label={label} />
      <Notice kind="error">{error && `The progress could not be read (${error}); trying again.`}</Notice>
    </div>
  );
}

/** Rule versions: a readable editor (with a JSON view), checks, dry-run diff, activation and its progress. */
export function RulesTab({ ctx }: { ctx: CampaignContext }) {
  const base = `/api/campaigns/${ctx.campaign.id}/rule-versions`;
  const versions = useLoad(() => api<Answer<"/api/campaigns/{campaign_id}/rule-versions", "get">>("GET", base), [base]);
  const list = versions.data?.rule_versions ?? [];
  const active = list.find((v) => v.status === "active");
  const [doc, setDoc] = useState<RuleDocument | null>(null);
  const [mode, setMode] = useState<"form" | "json">("form");
  const [jsonText, setJsonText] = useState("");
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [issues, setIssues] = useState<RuleIssue[] | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const [job, setJob] = useState<RecomputeJob | null>(null);
  const [jobError, setJobError] = useState<string | null>(null);
  // Each card's buttons have their own action, so a failure is told in the card that was clicked in.
  const action = useAction();
  const versionAction = useAction();
  const activateAction = useAction();

  // Start from the active version (or a starter document) once the versions are known.
  useEffect(() => {
    if (doc || !versions.data) return;
    if (active)
      api<RuleVersionWithDocument>("GET", `${base}/${active.version}`)
        .then((v) => setDoc(editable(v.document ?? {})))
        .catch((e: unknown) => action.setError(messageOf(e)));
    else setDoc(starterDocument(ctx.campaign, ctx.eventTypes));
  }, [versions.data, active, doc, base, ctx.campaign, ctx.eventTypes, action.setError]);

  const pending = list.find((v) => v.activation_job && ["queued", "running"].includes(v.activation_job.status))?.activation_job ?? null;
  const shownJob = job ?? pending;
  // One poll at a time (usePoll), and an answer about a job no longer shown (another was activated meanwhile) is dropped.
  const shownId = useRef(shownJob?.id);
  shownId.current = shownJob?.id;
  usePoll(
    async () => {
      if (!shownJob) return;
      let next: RecomputeJob;
      try {
        next = await api<RecomputeJob>("GET", `/api/campaigns/${ctx.campaign.id}/recompute-jobs/${shownJob.id}`);
      } catch (e) {
        if (shownId.current === shownJob.id) setJobError(messageOf(e));
        return;
      }
      if (shownId.current !== shownJob.id) return;
      setJobError(null);
      setJob(next);
      if (next.status === "done" || next.status === "failed") versions.reload();
    },
    1000,
    Boolean(shownJob && ["queued", "running"].includes(shownJob.status)),
  );

  const switchMode = (next: "form" | "json") => {
    if (next === "json") {
      setJsonText(JSON.stringify(doc, null, 2));
      setJsonError(null);
      setMode("json");
      return;
    }
    try {
      setDoc(JSON.parse(jsonText));
      setMode("form");
    } catch (e) {
      setJsonError(`The JSON does not parse: ${(e as Error).message}`);
    }
  };
  const current = (): RuleDocument | null => {
    if (mode === "form") return doc;
    try {
      return JSON.parse(jsonText);
    } catch (e) {
      setJsonError(`The JSON does not parse: ${(e as Error).message}`);
      return null;
    }
  };
  const check = async () => {
    const d = current();
    if (!d) return;
    const res = await action.run(() => api<Answer<"/api/campaigns/{campaign_id}/rule-versions/validate", "post">>("POST", `${base}/validate`, { document: d }));
    if (res) setIssues(res.issues);
  };
  const save = async () => {
    const d = current();
    if (!d) return;
    const res = await action.run(() => api<Answer<"/api/campaigns/{campaign_id}/rule-versions/validate", "post">>("POST", `${base}/validate`, { document: d }));
    if (!res) return;
    setIssues(res.issues);
    if (!res.valid) return;
    const created = await action.run(() => api<RuleVersion>("POST", base, { document: d }));
    if (created) {
      setSaved(created.version);
      versions.reload();
      await preview(created.version, action);
    }
  };
  /** Shows the dry run of `version`; its failure is told where it was asked for (`by`: Save's card, or the list's). */
  const preview = async (version: number, by = versionAction) => {
    const res = await by.run(() => api<DryRun>("POST", `${base}/${version}/dry-run`, {}));
    if (res) setDryRun(res);
  };
  const activate = async (version: number) => {
    const res = await activateAction.run(() =>
      api<Answer<"/api/campaigns/{campaign_id}/rule-versions/{version}/activate", "post">>("POST", `${base}/${version}/activate`, {}),
    );
    if (res) {
      setJobError(null);
      setJob(res.job);
      setDryRun(null);
      setSaved(null);
      versions.reload();
    }
  };
  const edit = async (version: number) => {
    setSaved(null);
    const v = await versionAction.run(() => api<RuleVersionWithDocument>("GET", `${base}/${version}`));
    if (v?.document) {
      setDoc(editable(v.document));
      setMode("form");
      setIssues(null);
    }
  };

  return (
    <>
      <Card title="Rule versions">
        <p className="muted">
          A version is never edited: save a new one, preview how the leaderboard would change, then activate it. Activation recomputes every score from the
          event log in the background; the current scores stay live until it finishes.
        </p>
        {shownJob && <JobProgress job={shownJob} error={jobError} />}
        <DataTable
          columns={["Version", "Status", "Rules", "Saved", "Activated", ""]}
          note={versions.data !== null && list.length === 0 && "No rules yet. Write the first version below."}
        >
          {list.map((v) => (
            <tr key={v.version}>
              <td>v{v.version}</td>
              <td>
                <Badge tone={STATUS_TONE[v.status]}>{v.status}</Badge>
                {v.activation_job && ["queued", "running"].includes(v.activation_job.status) && <Badge tone="amber">activating</Badge>}
              </td>
              <td>{v.rule_count}</td>
              <td>{formatTime(v.created_at)}</td>
              <td>{formatTime(v.activated_at)}</td>
              <td className="right nowrap">
                <button type="button" className="btn btn-small btn-ghost" onClick={() => edit(v.version)} disabled={versionAction.busy}>
                  Edit a copy
                </button>
                {v.status !== "active" && (
                  <button type="button" className="btn btn-small" onClick={() => preview(v.version)} disabled={versionAction.busy}>
                    Preview changes
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
        <Notice kind="error">{versionAction.error}</Notice>
      </Card>

      {dryRun && (
        <Card
          title={`Preview: v${dryRun.after_version} against ${dryRun.before_version ? `v${dryRun.before_version} (active)` : "no active rules"}`}
          testId="dry-run"
        >
          <p className="muted">
            Replayed {dryRun.events} event{dryRun.events === 1 ? "" : "s"}. {dryRun.moves_total} user{dryRun.moves_total === 1 ? "" : "s"} would move or change
            points, {dryRun.unchanged} stay the same ({dryRun.currency}).
          </p>
          <DataTable
            columns={[
              "User",
              "Rank now",
              "Rank after",
              { label: "Points now", className: "num" },
              { label: "Points after", className: "num" },
              { label: "Change", className: "num" },
            ]}
          >
            {dryRun.moves.map((m) => (
              <tr key={m.user_id}>
                <td>{labelOf(m)}</td>
                <td>{m.rank_before ?? "—"}</td>
                <td>
                  {m.rank_after ?? "off the board"}
                  {m.rank_change ? (
                    <span className={m.rank_change > 0 ? "up" : "down"}>{m.rank_change > 0 ? ` ▲${m.rank_change}` : ` ▼${-m.rank_change}`}</span>
                  ) : null}
                </td>
                <td className="num">{formatPoints(m.points_before)}</td>
                <td className="num">{formatPoints(m.points_after)}</td>
                <td className={`num ${m.points_change.startsWith("-") ? "down" : "up"}`}>{formatPoints(m.points_change)}</td>
              </tr>
            ))}
          </DataTable>
          {list.find((v) => v.version === dryRun.after_version)?.status !== "active" && (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => activate(dryRun.after_version)}
              // Not while another preview (which would replace this one) is on its way either.
              disabled={activateAction.busy || versionAction.busy || action.busy || Boolean(pending) || Boolean(ctx.campaign.archived_at)}
            >
              Activate v{dryRun.after_version}
            </button>
          )}
          <Notice kind="error">{activateAction.error}</Notice>
        </Card>
      )}

      <Card
        title="Edit rules"
        actions={
          <div className="segmented">
            <button type="button" className={mode === "form" ? "on" : ""} onClick={() => switchMode("form")}>
              Form
            </button>
            <button type="button" className={mode === "json" ? "on" : ""} onClick={() => switchMode("json")}>
              JSON
            </button>
          </div>
        }
      >
        {!doc && !action.error && !versions.error && <p className="muted">Loading…</p>}
        {doc && mode === "form" && <RuleForm doc={doc} campaign={ctx.campaign} eventTypes={ctx.eventTypes} onChange={setDoc} />}
        {mode === "json" && <textarea className="json" rows={24} value={jsonText} onChange={(e) => setJsonText(e.target.value)} spellCheck={false} />}
        <Notice kind="error">{jsonError}</Notice>
        {issues && issues.length > 0 && doc && (
          <div className="notice notice-error" role="alert">
            <strong>Fix these before saving:</strong>
            <ul>
              {issues.map((i) => (
                <li key={`${i.path}:${i.message}`}>
                  {describePath(i.path, doc)}: {i.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {issues?.length === 0 && <Notice kind="success">These rules are valid.</Notice>}
        {saved !== null && <Notice kind="success">Saved as v{saved}. Check the preview above, then activate it.</Notice>}
        <Notice kind="error">{action.error ?? versions.error}</Notice>
        <div className="row">
          <button type="button" className="btn" onClick={check} disabled={action.busy}>
            Check
          </button>
          <button type="button" className="btn btn-primary" onClick={save} disabled={action.busy || Boolean(ctx.campaign.archived_at)}>
            Save as new version
          </button>
        </div>
      </Card>
    </>
  );
}

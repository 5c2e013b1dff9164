// The recompute an action on a user queued (an identity moved or unlinked), followed until it is done, and what the page says about it.
import { useRef, useState } from "react";
import { api } from "../api";
import type { RecomputeJob } from "../types";
import { messageOf, Notice, usePoll } from "../ui";

const isPending = (job: RecomputeJob | null) => job?.status === "queued" || job?.status === "running";

/**
 * Follows a recompute job, asking for it every second (one request at a time), and calls `onFinished` once it is
 * done or failed: until then the scores and the ledger still show the user's points from before the change.
 */
export function useFollowedRecompute(campaignId: string, onFinished: () => void) {
  const [job, setJob] = useState<RecomputeJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  // An answer about a job no longer followed (a later action queued another) is dropped.
  const followed = useRef<string | null>(null);
  usePoll(
    async () => {
      if (!job) return;
      let next: RecomputeJob;
      try {
        next = await api<RecomputeJob>("GET", `/api/campaigns/${campaignId}/recompute-jobs/${job.id}`);
      } catch (e) {
        if (followed.current === job.id) setError(messageOf(e));
        return;
      }
      if (followed.current !== job.id) return;
      setError(null);
      setJob(next);
      if (!isPending(next)) onFinished();
    },
    1000,
    isPending(job),
  );
  return {
    job,
    error,
    /** Starts following `next` (the job an action answered with), leaving any job followed before; the action reads the page again itself. */
    follow(next: RecomputeJob) {
      followed.current = next.id;
      setError(null);
      setJob(next);
    },
  };
}

/** Where the recompute of the user's change is: under way, done (the scores and the ledger show it), or failed. */
export function RecomputeNotice({ job, error }: { job: RecomputeJob; error: string | null }) {
  if (job.status === "done") return <Notice kind="success">Recomputed: the scores and the ledger below include this change.</Notice>;
  if (job.status === "failed") return <Notice kind="error">The recompute failed: {job.error ?? "see the scoring worker's log"}.</Notice>;
  return (
    <>
      <Notice kind="info">Scores are being recomputed in the background; the scores and the ledger below follow once it is done.</Notice>
      <Notice kind="error">{error && `The recompute's progress could not be read (${error}); trying again.`}</Notice>
    </>
  );
}

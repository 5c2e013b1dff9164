// Campaign tab "Leaderboard": the fresh leaderboard in any currency and the top users' points over time.
import { useState } from "react";
import { api } from "../api";
import { go } from "../router";
import type { Chart, Leaderboard } from "../types";
import { Card, DataTable, formatPoints, labelOf, Notice, useLoad } from "../ui";
import type { CampaignContext } from "./campaign-context";
import { PointsChart } from "./PointsChart";

/** The fresh leaderboard and points over time of the top users. */
export function LeaderboardTab({ ctx }: { ctx: CampaignContext }) {
  const c = ctx.campaign;
  const [currency, setCurrency] = useState(c.primary_currency);
  const [bucket, setBucket] = useState<"day" | "hour">("day");
  const board = useLoad(() => api<Leaderboard>("GET", `/api/campaigns/${c.id}/leaderboard?currency=${currency}&limit=100`), [c.id, currency]);
  const chart = useLoad(() => api<Chart>("GET", `/api/campaigns/${c.id}/chart?currency=${currency}&bucket=${bucket}&top=5`), [c.id, currency, bucket]);
  const currencies = Object.keys(c.currencies);
  const byBalance = board.data?.ranking === "balance";

  return (
    <>
      <div className="row">
        <label className="inline">
          Currency{" "}
          <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {currencies.map((k) => (
              <option key={k} value={k}>
                {c.currencies[k]} ({k})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            board.reload();
            chart.reload();
          }}
        >
          Refresh
        </button>
      </div>
      <Card
        title="Points over time (top 5)"
        actions={
          <div className="segmented">
            <button type="button" className={bucket === "day" ? "on" : ""} onClick={() => setBucket("day")}>
              30 days
            </button>
            <button type="button" className={bucket === "hour" ? "on" : ""} onClick={() => setBucket("hour")}>
              48 hours
            </button>
          </div>
        }
      >
        <p className="muted small">Points are placed at the time their event happened, so imported history counts on its own days.</p>
        <Notice kind="error">{chart.error}</Notice>
        {chart.data && <PointsChart chart={chart.data} />}
      </Card>
      <Card title="Leaderboard" testId="leaderboard">
        <p className="muted small">
          Live from the scores (the public board is cached for about a minute and hides identities)
          {board.data?.rule_version ? `; rules v${board.data.rule_version}` : ""}.
        </p>
        {board.data && (
          <p className="small" data-testid="leaderboard-ranking">
            {byBalance ? "Ranked by balance: points earned minus points spent on rewards." : "Ranked by points earned."}
          </p>
        )}
        <Notice kind="error">{board.error}</Notice>
        <DataTable
          columns={[
            "Rank",
            "User",
            ...currencies.map((k) => ({ key: `currency:${k}`, label: c.currencies[k] ?? "", className: "num" })),
            ...(byBalance ? [{ key: "balance", label: `Balance (${c.currencies[currency] ?? currency})`, className: "num" }] : []),
            "Tier",
          ]}
          note={board.data?.entries.length === 0 && "Nobody has points in this currency yet."}
        >
          {board.data?.entries.map((e) => (
            <tr key={e.user_id} className="clickable" onClick={() => go(`/campaigns/${c.id}/users?user=${e.user_id}`)}>
              <td>{e.rank}</td>
              <td>
                <a href={`#/campaigns/${c.id}/users?user=${e.user_id}`}>{labelOf(e)}</a>
                {e.identity && <div className="muted small">{e.identity.identity_type}</div>}
              </td>
              {currencies.map((k) => (
                <td key={k} className="num">
                  {e.scores[k] ? formatPoints(e.scores[k].total) : "0"}
                </td>
              ))}
              {byBalance && <td className="num">{e.balances[currency] ? formatPoints(e.balances[currency].balance) : "0"}</td>}
              <td>{e.scores[currency]?.tier ?? "—"}</td>
            </tr>
          ))}
        </DataTable>
      </Card>
    </>
  );
}

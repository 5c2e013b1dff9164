// The SVG line chart of the top users' running points totals.
import type { Chart } from "../types";
import { formatPoints, labelOf } from "../ui";

const COLORS = ["#4f46e5", "#0891b2", "#d97706", "#db2777", "#16a34a", "#7c3aed", "#dc2626", "#0d9488", "#ca8a04", "#2563eb"];
const W = 760;
const H = 260;
const PAD = { left: 64, right: 16, top: 12, bottom: 28 };

/** A line per top user: running points total per bucket (numbers here only place pixels). */
export function PointsChart({ chart }: { chart: Chart }) {
  if (chart.series.length === 0) return <p className="muted">No points yet.</p>;
  const values = chart.series.flatMap((s) => s.values.map(Number));
  const max = Math.max(1, ...values);
  const n = chart.buckets.length;
  const x = (i: number) => PAD.left + (n <= 1 ? 0 : (i / (n - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const labelEvery = Math.max(1, Math.ceil(n / 8));
  const tickLabel = (iso: string) => (chart.bucket === "day" ? iso.slice(5, 10) : `${iso.slice(11, 13)}h`);

  return (
    <div className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Points over time of the top users">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="grid" />
            <text x={PAD.left - 8} y={y(t) + 4} textAnchor="end" className="axis">
              {formatPoints(String(Math.round(t)))}
            </text>
          </g>
        ))}
        {chart.buckets.map((b, i) =>
          i % labelEvery === 0 ? (
            <text key={b} x={x(i)} y={H - 8} textAnchor="middle" className="axis">
              {tickLabel(b)}
            </text>
          ) : null,
        )}
        {chart.series.map((s, k) => (
          <polyline
            key={s.user_id}
            fill="none"
            stroke={COLORS[k % COLORS.length]}
            strokeWidth={2.5}
            strokeLinejoin="round"
            points={s.values.map((v, i) => `${x(i)},${y(Number(v))}`).join(" ")}
          />
        ))}
      </svg>
      <ul className="legend">
        {chart.series.map((s, k) => (
          <li key={s.user_id}>
            <span className="swatch" style={{ background: COLORS[k % COLORS.length] }} /> {labelOf(s)}{" "}
            <span className="muted">{formatPoints(s.values.at(-1) ?? "0")}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

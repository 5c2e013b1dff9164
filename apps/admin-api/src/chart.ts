/** Bucket sizes of the points-over-time chart. */
export const CHART_BUCKETS = { hour: 3_600_000, day: 86_400_000 } as const;

/** A bucket size of the chart. */
export type ChartBucket = keyof typeof CHART_BUCKETS;

/** One user's running total at the end of a bucket in which they earned points. */
export interface CumulativeRow {
  userId: string;
  /** Start of the bucket (UTC). */
  bucket: Date;
  /** Points earned up to and including this bucket (decimal string). */
  cumulative: string;
}

/** The chart: bucket starts on the x axis and one running total per user and bucket. */
export interface ChartSeries {
  buckets: string[];
  series: { userId: string; values: string[] }[];
}

/** The start of the bucket holding `at` (UTC-aligned, as PostgreSQL's date_trunc in UTC). */
export function bucketStart(at: Date, bucket: ChartBucket): Date {
  const size = CHART_BUCKETS[bucket];
  return new Date(Math.floor(at.getTime() / size) * size);
}

/**
 * Lays running totals onto `count` consecutive buckets ending with the one that holds `now`. A bucket
 * without points of its own shows the total so far (the last row at or before it, "0" before the first),
 * so every line rises or stays flat. Users are listed in the order given.
 */
export function buildSeries(rows: readonly CumulativeRow[], userIds: readonly string[], bucket: ChartBucket, count: number, now: Date): ChartSeries {
  const size = CHART_BUCKETS[bucket];
  const last = bucketStart(now, bucket).getTime();
  const starts = Array.from({ length: count }, (_, i) => last - (count - 1 - i) * size);
  const byUser = new Map<string, CumulativeRow[]>(userIds.map((u) => [u, []]));
  for (const r of rows) byUser.get(r.userId)?.push(r);
  const series = userIds.map((userId) => {
    const own = (byUser.get(userId) ?? []).slice().sort((a, b) => a.bucket.getTime() - b.bucket.getTime());
    let i = 0;
    let current = "0";
    const values = starts.map((start) => {
      while (i < own.length && (own[i]?.bucket.getTime() ?? Number.POSITIVE_INFINITY) <= start) {
        current = own[i]?.cumulative ?? current;
        i += 1;
      }
      return current;
    });
    return { userId, values };
  });
  return { buckets: starts.map((t) => new Date(t).toISOString()), series };
}

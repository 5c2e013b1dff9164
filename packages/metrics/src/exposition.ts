// Reads samples back out of the Prometheus text exposition an app serves on /metrics (for tests and the soak).

/** The labels of one sample, by name. */
export type SampleLabels = Record<string, string>;

/** One sample of a scrape: its metric name (with `_bucket`, `_sum`, `_count` suffixes as served), labels and value. */
export interface Sample {
  name: string;
  labels: SampleLabels;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of a text exposition, comments left out. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const m = SAMPLE.exec(line);
    if (m === null) continue;
    const labels: SampleLabels = {};
    for (const [, key, value] of (m[2] ?? "").matchAll(LABEL))
      labels[key as string] = (value as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/**
 * The value of the sample named `name` whose labels include `labels` (all of them, others may be there),
 * or undefined when there is none; more than one match is an error, so a test never reads the wrong series.
 */
export function sampleValue(text: string, name: string, labels: SampleLabels = {}): number | undefined {
  const found = parseExposition(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}: name more labels`);
  return found[0]?.value;
}

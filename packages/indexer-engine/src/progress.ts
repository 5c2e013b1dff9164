// Backfill progress: rate and ETA, drawn as a terminal bar or written as periodic log lines.
import type { Logger } from "@pointwise/logger";

/** Where a backfill stands. */
export interface ProgressSnapshot {
  done: number;
  total: number;
  blocksPerSecond: number;
  /** Seconds left at the current rate; undefined until there is a rate. */
  etaSeconds: number | undefined;
}

/** Computes progress from blocks done since `startDone` over `elapsedMs`. */
export function progressSnapshot(done: number, total: number, startDone: number, elapsedMs: number): ProgressSnapshot {
  const rate = elapsedMs > 0 ? ((done - startDone) * 1000) / elapsedMs : 0;
  const left = Math.max(0, total - done);
  return { done, total, blocksPerSecond: rate, etaSeconds: rate > 0 ? left / rate : undefined };
}

/** Formats seconds as `1h02m03s`, `4m05s` or `6s`. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, "0")}m${String(r).padStart(2, "0")}s`;
  if (m > 0) return `${m}m${String(r).padStart(2, "0")}s`;
  return `${r}s`;
}

/** One line of a terminal progress bar: `[#####-----]  50% 500/1000 blocks 12.5 blocks/s ETA 40s`. */
export function renderBar(p: ProgressSnapshot, width = 30): string {
  const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
  const filled = Math.round(ratio * width);
  const eta = p.etaSeconds === undefined ? "--" : formatDuration(p.etaSeconds);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${p.done}/${p.total} blocks ${p.blocksPerSecond.toFixed(1)} blocks/s ETA ${eta}`;
}

/** Receives progress of a backfill. */
export interface ProgressReporter {
  update(done: number, total: number): void;
  finish(): void;
}

/** Settings of the progress reporter. */
export interface ProgressOptions {
  /** Draw a bar on this terminal stream; when absent, progress goes to the log. */
  tty?: NodeJS.WriteStream;
  logger: Logger;
  /** Minimum time between log lines (bar redraws are limited to 10 per second). */
  logIntervalMs?: number;
  now?: () => number;
}

/** A progress bar on a terminal, log lines (`Backfill progress`) otherwise. */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? Date.now;
  const interval = options.tty === undefined ? (options.logIntervalMs ?? 10_000) : 100;
  let start: { at: number; done: number } | undefined;
  let lastEmit = Number.NEGATIVE_INFINITY;
  /** The terminal a bar was drawn on since the last finish, whose line finish ends. */
  let drawnOn: NodeJS.WriteStream | undefined;
  let latest: ProgressSnapshot | undefined;
  return {
    update(done, total) {
      const at = now();
      if (start === undefined) start = { at, done };
      latest = progressSnapshot(done, total, start.done, at - start.at);
      if (at - lastEmit < interval && done < total) return;
      lastEmit = at;
      if (options.tty !== undefined) {
        options.tty.write(`\r${renderBar(latest)}`);
        drawnOn = options.tty;
      } else {
        const { blocksPerSecond, etaSeconds } = latest;
        options.logger.info(
          { done, total, blocksPerSecond: Number(blocksPerSecond.toFixed(2)), etaSeconds: etaSeconds === undefined ? null : Math.round(etaSeconds) },
          "Backfill progress",
        );
      }
    },
    finish() {
      drawnOn?.write("\n");
      drawnOn = undefined;
    },
  };
}

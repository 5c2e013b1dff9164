// An open-loop load at a fixed rate: requests are due at evenly spaced times (rate per second,
// not bursts), go out over at most `connections` keep-alive sockets, and each one's latency is
// counted from the time it was due, not from when a socket was free to send it. A server that
// falls behind therefore shows its queue in the figures instead of slowing the load down
// (the "coordinated omission" that a closed loop or per-second pacing hides).
import http from "node:http";

/** What to load and how hard. */
export interface PacedOptions {
  url: string;
  /** Requests per second, spread evenly. */
  rate: number;
  durationSec: number;
  /** Keep-alive sockets at most; a request due while all are busy waits (and that wait counts). */
  connections: number;
}

/** The figures of one paced run. */
export interface PacedResult {
  /** Requests completed per second of the run's wall time. */
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  total: number;
  non2xx: number;
  errors: number;
}

const TICK_MS = 1;

/** Sends `rate` requests per second for `durationSec` and resolves once every answer is in. */
export function pacedLoad(options: PacedOptions): Promise<PacedResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.max(1, Math.round(options.rate * options.durationSec));
  const latencies = new Float64Array(total);
  let sent = 0;
  let done = 0;
  let non2xx = 0;
  let errors = 0;
  const start = performance.now() + 20;

  return new Promise((resolve) => {
    const finish = (due: number) => {
      latencies[done++] = performance.now() - due;
      if (done < total) return;
      agent.destroy();
      const wallSec = (performance.now() - start) / 1000;
      latencies.sort();
      const at = (q: number) => latencies[Math.min(total - 1, Math.floor(q * total))] as number;
      resolve({ achievedRate: total / wallSec, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies[total - 1] as number, total, non2xx, errors });
    };
    const send = (due: number) => {
      const req = http.get({ agent, hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}` }, (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx++;
        res.resume();
        res.on("end", () => finish(due));
      });
      req.on("error", () => {
        errors++;
        finish(due);
      });
    };
    // Every tick sends what has fallen due since the last one, each stamped with its own due time.
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate));
      for (; sent < due; sent++) send(start + (sent * 1000) / options.rate);
      if (sent >= total) clearInterval(timer);
    }, TICK_MS);
  });
}

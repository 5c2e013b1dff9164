// An open-loop load at a fixed rate: requests are due at evenly spaced times (rate per second,
// not bursts), go out over at most `connections` keep-alive sockets, and each one's latency is
// counted from the time it was due, not from when a socket was free to send it. A server that
// falls behind therefore shows its queue in the figures instead of slowing the load down
// (the "coordinated omission" that a closed loop or per-second pacing hides).
//
// The client is a few lines over raw sockets (prebuilt requests, answers read by their
// Content-Length) rather than node:http: its own cost per request, and so its own pauses, stay far
// below the server's, which matters when both share the machine's two cores.
import net from "node:net";
import { main, printResult, runScript } from "./child";

/** What to load and how hard. */
export interface PacedOptions {
  url: string;
  /** Requests per second, spread evenly. */
  rate: number;
  durationSec: number;
  /** Keep-alive sockets at most; a request due while all are busy waits (and that wait counts). */
  connections: number;
  /** POST these bodies in turn (with `headers`) instead of GETs. */
  bodies?: string[];
  headers?: Record<string, string>;
}

/** The figures of one paced run (a connection error or an answer that cannot be framed fails the run instead). */
export interface PacedResult {
  p99Ms: number;
  total: number;
  non2xx: number;
}

const TICK_MS = 1;
const HEADER_END = Buffer.from("\r\n\r\n");

interface Connection {
  socket: net.Socket;
  /** When the request in flight was due; null while the connection is free. */
  due: number | null;
  head: Buffer;
  /** Body bytes still to come once the head is read; -1 while reading the head. */
  bodyLeft: number;
  /** The status code of the answer being read. */
  status: number;
}

/** Sends `rate` requests per second for `durationSec` and resolves once every answer is in. */
export function pacedLoad(options: PacedOptions): Promise<PacedResult> {
  const target = new URL(options.url);
  if (target.hostname !== "127.0.0.1" && target.hostname !== "localhost") throw new Error("load tests only target 127.0.0.1");
  const head = (method: string, extra: string) =>
    `${method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n${Object.entries(options.headers ?? {})
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}${extra}\r\n`;
  const requests = options.bodies
    ? options.bodies.map((b) => Buffer.from(`${head("POST", `Content-Length: ${Buffer.byteLength(b)}\r\n`)}${b}`))
    : [Buffer.from(head("GET", ""))];
  const total = Math.max(1, Math.round(options.rate * options.durationSec));
  const latencies = new Float64Array(total);
  const waiting: number[] = [];
  const free: Connection[] = [];
  let sent = 0;
  let written = 0;
  let done = 0;
  let non2xx = 0;
  let start = 0;

  return new Promise((resolve, reject) => {
    const connections: Connection[] = [];
    const finishOne = (c: Connection, ok: boolean) => {
      if (!ok) non2xx++;
      latencies[done++] = performance.now() - (c.due as number);
      c.due = null;
      const next = waiting.shift();
      if (next !== undefined) dispatch(c, next);
      else free.push(c);
      if (done < total) return;
      finished = true;
      for (const x of connections) x.socket.destroy();
      latencies.sort();
      const at = (q: number) => latencies[Math.min(total - 1, Math.floor(q * total))] as number;
      resolve({ p99Ms: at(0.99), total, non2xx });
    };
    const dispatch = (c: Connection, due: number) => {
      c.due = due;
      c.head = Buffer.alloc(0);
      c.bodyLeft = -1;
      c.socket.write(requests[written++ % requests.length] as Buffer);
    };
    const drop = (c: Connection) => {
      const i = free.indexOf(c);
      if (i >= 0) free.splice(i, 1);
      const j = connections.indexOf(c);
      if (j >= 0) connections.splice(j, 1);
      c.socket.destroy();
    };
    const onData = (c: Connection, chunk: Buffer) => {
      // Bytes on a connection with nothing in flight: the server is closing an idle keep-alive
      // connection (node answers 408 first); the load goes on over the others.
      if (c.due === null) {
        drop(c);
        return;
      }
      if (c.bodyLeft < 0) {
        c.head = c.head.length ? Buffer.concat([c.head, chunk]) : chunk;
        const end = c.head.indexOf(HEADER_END);
        if (end < 0) return;
        const head = c.head.subarray(0, end).toString("latin1");
        c.status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (!length) {
          // Every answer measured here carries a Content-Length; anything else cannot be framed.
          reject(new Error(`an answer without Content-Length: ${head.split("\r\n")[0]}`));
          c.socket.destroy();
          return;
        }
        c.bodyLeft = Number(length[1]) - (c.head.length - end - HEADER_END.length);
        if (c.bodyLeft <= 0) finishOne(c, c.status >= 200 && c.status < 300);
        return;
      }
      c.bodyLeft -= chunk.length;
      if (c.bodyLeft <= 0) finishOne(c, c.status >= 200 && c.status < 300);
    };
    let opened = 0;
    let finished = false;
    // Opens one keep-alive connection; it joins the free ones once connected (and takes a waiting request).
    const open = () => {
      const c: Connection = { socket: net.connect(Number(target.port), target.hostname), due: null, head: Buffer.alloc(0), bodyLeft: -1, status: 0 };
      c.socket.setNoDelay(true);
      c.socket.on("data", (chunk: Buffer) => onData(c, chunk));
      c.socket.on("error", (err) => {
        if (start === 0) reject(err);
      });
      c.socket.on("close", () => {
        if (c.due !== null && !finished) reject(new Error("a connection closed with a request in flight"));
        drop(c);
        // A connection the server closed while idle is replaced, so the run keeps its connections.
        if (start !== 0 && !finished) open();
      });
      c.socket.once("connect", () => {
        const next = start !== 0 ? waiting.shift() : undefined;
        if (next !== undefined) dispatch(c, next);
        else free.push(c);
        if (start === 0 && ++opened === options.connections) begin();
      });
      connections.push(c);
    };
    for (let i = 0; i < options.connections; i++) open();
    // Every tick sends what has fallen due since the last one, each stamped with its own due time.
    const begin = () => {
      start = performance.now();
      const timer = setInterval(() => {
        // Request i falls due at start + i / rate, so i + 1 of them are due once that time has come.
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate) + 1);
        for (; sent < due; sent++) {
          const at = start + (sent * 1000) / options.rate;
          // The longest-idle connection first, so every one stays in use and none idles out.
          const c = free.shift();
          if (c) dispatch(c, at);
          else waiting.push(at);
        }
        if (sent >= total) clearInterval(timer);
      }, TICK_MS);
    };
  });
}

/**
 * Runs `pacedLoad` in a child process of its own (this file run as a script, options on its stdin) and returns its
 * figures: a small process whose heap holds nothing but the load, so a garbage collection of the benchmark's own data
 * cannot pause the sender and show up as server latency.
 */
export function pacedLoadProcess(options: PacedOptions): Promise<PacedResult> {
  return runScript(__filename, [], "PACED_RESULT", JSON.stringify(options));
}

if (require.main === module) {
  let input = "";
  process.stdin.on("data", (d) => {
    input += d;
  });
  process.stdin.on("end", () => main(async () => printResult("PACED_RESULT", await pacedLoad(JSON.parse(input) as PacedOptions))));
}

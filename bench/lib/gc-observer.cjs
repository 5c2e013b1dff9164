// Preloaded into an app process by a benchmark (`node --require bench/lib/gc-observer.cjs`, with
// PW_GC_LOG naming a file). Each SIGUSR2 switches it on or off; while on, it appends one JSON line
// per garbage collection, with its wall-clock start (ms since the epoch), its pause on the main thread
// (ms) and its kind (perf_hooks' constants: 1 young generation, 4 full mark-compact, 8 incremental
// marking step, 16 weak callbacks), so the benchmark can tell which of its rounds a collection fell
// in, and the app runs unobserved in every other round. Node reports the entries in batches after
// the collections, so the file is written once per batch, never during a pause.
const { appendFileSync } = require("node:fs");
const { PerformanceObserver, performance } = require("node:perf_hooks");

const file = process.env.PW_GC_LOG;
if (file) {
  let observer;
  process.on("SIGUSR2", () => {
    if (observer) {
      observer.disconnect();
      observer = undefined;
      return;
    }
    observer = new PerformanceObserver((list) => {
      let lines = "";
      for (const entry of list.getEntries()) {
        lines += `${JSON.stringify({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind: entry.detail?.kind })}\n`;
      }
      appendFileSync(file, lines);
    });
    observer.observe({ entryTypes: ["gc"] });
  });
}

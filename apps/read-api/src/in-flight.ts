/**
 * Runs `start` for `key` unless a run for that key is in flight, whose promise is then shared, so
 * requests that arrive while a lookup runs do not each repeat it. The entry goes when its run
 * settles (a failure is not kept); a caller may delete it earlier to make later callers start afresh.
 */
export function sharedInFlight<T>(inFlight: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running;
  const started = start();
  inFlight.set(key, started);
  const settle = () => {
    if (inFlight.get(key) === started) inFlight.delete(key);
  };
  started.then(settle, settle);
  return started;
}

// Run as its own process by connection-loss.test.ts: large COPYs whose backends are terminated while
// rows are still being written, round after round (the socket error races the COPY's own failure).
// A client error nobody listens to would kill this process; it prints each COPY's outcome instead.
import { createDatabase } from "../src/client";

async function main(): Promise<void> {
  const [url, schema, applicationName, rounds] = process.argv.slice(2) as [string, string, string, string];
  const db = createDatabase({ url, schema, applicationName, max: 2 });
  const admin = createDatabase({ url, schema, max: 1 });
  let data = "";
  for (let i = 0; i < 400_000; i++) data += `${i}\t${"x".repeat(100)}\n`;
  const outcomes = new Set<string>();
  for (let round = 0; round < Number(rounds); round++) {
    const copy = db.copy("COPY blob(id, t) FROM STDIN", data).then(
      (n) => `copied ${n}`,
      (err: Error) => `${err.constructor.name} ${(err as { code?: string }).code}`,
    );
    for (let i = 0; i < 500; i++) {
      const { rows } = await admin.query<{ n: number }>(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
        [`${applicationName}@${schema}`],
      );
      if ((rows[0]?.n ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    outcomes.add(await copy);
    // Give a late socket error time to arrive.
    await new Promise((r) => setTimeout(r, 100));
  }
  process.stdout.write(`${[...outcomes].join(", ")}\n`);
  await db.close();
  await admin.close();
}

void main();

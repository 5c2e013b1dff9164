// docs/configuration.md names every environment variable each app's env schema reads, in that app's section.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";
import type { z } from "zod";
import { envSchema as admin } from "../../apps/admin-api/src/env";
import { runSchema as indexer } from "../../apps/indexer-service/src/env";
import { envSchema as ingest } from "../../apps/ingest-api/src/env";
import { envSchema as portal } from "../../apps/portal-api/src/env";
import { envSchema as read } from "../../apps/read-api/src/env";
import { envSchema as worker } from "../../apps/scoring-worker/src/env";

const doc = readFileSync(path.join(repoRoot, "docs", "configuration.md"), "utf8");

/** The part of the page under a "## <title>" heading. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`docs/configuration.md has no section "${title}"`);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

const shared = section("Shared by ingest-api, scoring-worker, read-api, admin-api and portal-api");

describe("docs/configuration.md lists every variable each app reads", () => {
  const apps: [string, z.ZodObject][] = [
    ["ingest-api", ingest as unknown as z.ZodObject],
    ["scoring-worker", worker],
    ["read-api", read],
    ["admin-api", admin],
    ["portal-api", portal],
    ["indexer-service", indexer],
  ];
  it.each(apps)("%s", (name, schema) => {
    const own = section(name);
    const missing = Object.keys(schema.shape).filter((key) => !own.includes(`\`${key}\``) && !shared.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});

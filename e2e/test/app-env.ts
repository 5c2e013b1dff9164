// Each app's env schema, and what it says a deployment must give the app: shared by the Kubernetes and compose tests.
import type { z } from "zod";
import { envSchema as admin } from "../../apps/admin-api/src/env";
import { runSchema as indexer } from "../../apps/indexer-service/src/env";
import { envSchema as ingest } from "../../apps/ingest-api/src/env";
import { envSchema as portal } from "../../apps/portal-api/src/env";
import { envSchema as read } from "../../apps/read-api/src/env";
import { envSchema as worker } from "../../apps/scoring-worker/src/env";

/** An object schema seen only by its fields, so a refined one (ingest-api's) fits without a cast. */
type EnvSchema = { shape: Record<string, z.ZodType> };

/** Each app's env schema: what its process reads. */
export const APP_ENV_SCHEMAS = {
  "ingest-api": ingest,
  "read-api": read,
  "admin-api": admin,
  "portal-api": portal,
  "scoring-worker": worker,
  "indexer-service": indexer,
} satisfies Record<string, EnvSchema>;

/** An app with an env schema. */
export type AppName = keyof typeof APP_ENV_SCHEMAS;

/** The variables an app reads, and those it requires: a variable is required when its schema refuses it unset. */
export function appEnv(app: AppName): { reads: Set<string>; required: string[] } {
  const shape: EnvSchema["shape"] = APP_ENV_SCHEMAS[app].shape;
  const names = Object.keys(shape);
  return { reads: new Set(names), required: names.filter((name) => !shape[name]?.safeParse(undefined).success) };
}

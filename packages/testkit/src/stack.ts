// Starts the whole service as real processes in an isolated schema and namespace for end-to-end tests.
import { type AppProcess, spawnApp } from "./processes";
import { createTestDatabase, dropNamespace, testServiceEnv, uniqueName } from "./services";

/** The whole service (admin-api, ingest-api, scoring-worker, read-api) as real processes in an isolated schema and namespace. */
export interface Stack {
  admin: AppProcess;
  ingest: AppProcess;
  worker: AppProcess;
  read: AppProcess;
  env: Record<string, string>;
  /** SIGTERM to every process; resolves with their exit codes. */
  stop(): Promise<(number | null)[]>;
  /** Kills whatever still runs, drops the schema and deletes the namespace's stream and Redis keys. */
  drop(): Promise<void>;
}

/** What a stack is started with: its first operator and settings on top of the test defaults. */
export interface StackOptions {
  operator: { email: string; password: string };
  /** Prefix of the schema and namespace name. */
  name?: string;
  env?: Record<string, string>;
}

/**
 * Starts the four services from their built bundles against the real PostgreSQL, Redis and NATS.
 * ingest-api starts first so admin-api can show its real URL in the curls it prints.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const schema = uniqueName(options.name ?? "stack");
  const db = await createTestDatabase(schema);
  const env = {
    ...testServiceEnv(schema),
    ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
    ADMIN_EMAIL: options.operator.email,
    ADMIN_PASSWORD: options.operator.password,
    CACHE_TTL_MS: "1000",
    ...options.env,
  };
  const ingest = await spawnApp("ingest-api", env);
  const [admin, worker, read] = await Promise.all([
    spawnApp("admin-api", { ...env, INGEST_PUBLIC_URL: ingest.url }),
    spawnApp("scoring-worker", env),
    spawnApp("read-api", env),
  ]);
  const apps = [admin, ingest, worker, read];
  return {
    admin,
    ingest,
    worker,
    read,
    env,
    stop: () => Promise.all(apps.map((a) => a.stop("SIGTERM"))),
    async drop() {
      await Promise.all(apps.map((a) => a.stop("SIGKILL")));
      await dropNamespace(options.env?.NAMESPACE ?? schema);
      await db.drop();
    },
  };
}

import { type AppProcess, createTestDatabase, spawnApp, testUrls, uniqueName } from "@pointwise/testkit";

/** The whole service as real processes in an isolated schema and namespace. */
export interface Stack {
  admin: AppProcess;
  ingest: AppProcess;
  worker: AppProcess;
  read: AppProcess;
  env: Record<string, string>;
  /** SIGTERM to every process; resolves with their exit codes. */
  stop(): Promise<(number | null)[]>;
  drop(): Promise<void>;
}

export const OPERATOR = { email: "operator@pointwise.test", password: "correct horse battery staple" };

/** Starts admin-api, ingest-api, scoring-worker and read-api against the real services. */
export async function startStack(overrides: Record<string, string> = {}): Promise<Stack> {
  const schema = uniqueName("e2e");
  const db = await createTestDatabase(schema);
  const env = {
    DATABASE_URL: testUrls.database,
    DATABASE_SCHEMA: schema,
    REDIS_URL: testUrls.redis,
    NATS_URL: testUrls.nats,
    NAMESPACE: schema,
    ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
    ADMIN_EMAIL: OPERATOR.email,
    ADMIN_PASSWORD: OPERATOR.password,
    CACHE_TTL_MS: "1000",
    FETCH_EXPIRES_MS: "1000",
    ...overrides,
  };
  const [admin, ingest, worker, read] = await Promise.all([
    spawnApp("admin-api", env),
    spawnApp("ingest-api", env),
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
      await db.drop();
    },
  };
}

/** JSON request helper: returns the status and parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field and check their shapes with the schemas
export async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

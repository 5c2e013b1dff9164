// Starts the whole service as real processes in an isolated schema and namespace for end-to-end tests.
import { generateKeyPairSync } from "node:crypto";
import { type AppProcess, freePort, spawnApp } from "./processes";
import { createTestDatabase, dropNamespace, testServiceEnv, uniqueName } from "./services";

/** The whole service (admin-api, ingest-api, scoring-worker, read-api) as real processes in an isolated schema and namespace. */
export interface Stack {
  admin: AppProcess;
  ingest: AppProcess;
  worker: AppProcess;
  read: AppProcess;
  /** portal-api, when the stack was started with `portal: true`; read-api then checks portal tokens through its JWKS. */
  portal: AppProcess | null;
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
  /** Also start portal-api (with a new signing key) and point read-api's PORTAL_JWKS_URL at it. */
  portal?: boolean;
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
  // With the portal, read-api's port is chosen first too: each names the other (JWKS, CORS, the page's scores).
  const portalPort = options.portal ? String(await freePort()) : null;
  const readPort = options.portal ? String(await freePort()) : null;
  const portalKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const readEnv = portalPort
    ? {
        PORTAL_JWKS_URL: `http://127.0.0.1:${portalPort}/.well-known/jwks.json`,
        CORS_ALLOWED_ORIGINS: `http://127.0.0.1:${portalPort}`,
        ...env,
        PORT: readPort as string,
      }
    : env;
  const portalEnv = {
    PORTAL_SIGNING_KEYS: portalKey,
    PORTAL_DOMAIN: `127.0.0.1:${portalPort}`,
    PORTAL_PUBLIC_URL: `http://127.0.0.1:${portalPort}`,
    PORTAL_READ_API_URL: `http://127.0.0.1:${readPort}`,
    ...env,
    PORT: portalPort as string,
  };
  const [admin, worker, read, portal] = await Promise.all([
    spawnApp("admin-api", { ...env, INGEST_PUBLIC_URL: ingest.url }),
    spawnApp("scoring-worker", env),
    spawnApp("read-api", readEnv),
    portalPort ? spawnApp("portal-api", portalEnv) : null,
  ]);
  const apps = [admin, ingest, worker, read, ...(portal ? [portal] : [])];
  return {
    admin,
    ingest,
    worker,
    read,
    portal,
    env,
    stop: () => Promise.all(apps.map((a) => a.stop("SIGTERM"))),
    async drop() {
      await Promise.all(apps.map((a) => a.stop("SIGKILL")));
      await dropNamespace(options.env?.NAMESPACE ?? schema);
      await db.drop();
    },
  };
}

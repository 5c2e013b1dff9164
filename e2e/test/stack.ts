// Test support for multi-app tests: starts the four apps against the real services, signs an operator in to admin-api, and a JSON request helper.
import { type Stack, startStack as startServices } from "@pointwise/testkit";

export type { Stack };

export const OPERATOR = { email: "operator@pointwise.test", password: "correct horse battery staple" };

/** Starts admin-api, ingest-api, scoring-worker and read-api (and portal-api with `portal: true`) against the real services. */
export function startStack(overrides: Record<string, string> = {}, options: { portal?: boolean } = {}): Promise<Stack> {
  return startServices({ operator: OPERATOR, name: "e2e", env: { FETCH_EXPIRES_MS: "1000", ...overrides }, ...options });
}

/** An operator signed in to admin-api: the session token and its Authorization header. */
export interface OperatorSession {
  token: string;
  auth: Record<string, string>;
}

/** Signs `operator` in to admin-api at `adminUrl` (POST /api/auth/login); throws unless it is signed in. */
export async function signInOperator(adminUrl: string, operator: { email: string; password: string }): Promise<OperatorSession> {
  const login = await call("POST", `${adminUrl}/api/auth/login`, operator);
  if (login.status !== 200 || typeof login.body?.token !== "string") {
    throw new Error(`POST /api/auth/login signed ${operator.email} in with ${login.status}: ${JSON.stringify(login.body)}`);
  }
  return { token: login.body.token, auth: { authorization: `Bearer ${login.body.token}` } };
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

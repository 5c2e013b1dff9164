// Every parameter of every operation in the four OpenAPI documents, sent extreme values against the running apps: nothing answers 5xx.
import { randomUUID } from "node:crypto";
import { loadOpenApi, type OpenApiName, type Stack, signInWithWallet, startStack, waitUntil } from "@pointwise/testkit";
import { Wallet } from "ethers";
import fc from "fast-check";
import { signInOperator } from "./stack";

jest.setTimeout(120_000);

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI documents and answers are free-form JSON, walked key by key.
type Any = any;

const OPERATOR = { email: "bounds@pointwise.test", password: "correct horse battery staple" };

/** A JSON number literal written as is (`-0`, `1e400`, 2^63 exactly), which JSON.stringify cannot produce. */
class Raw {
  constructor(readonly text: string) {}
}

const TWO_63 = "9223372036854775808";
/** Values every string-shaped parameter (path, query, header, CSV cell) is sent. */
const EXTREME_TEXT: string[] = [
  "",
  " ",
  "0",
  "-0",
  "-1",
  "1.5",
  "0.1000000000000000000000000000000000000001",
  "1e400",
  "9223372036854775807",
  TWO_63,
  "-9223372036854775809",
  "2147483648",
  "9".repeat(80),
  "NaN",
  "Infinity",
  "null",
  "١٢٣",
  "x".repeat(5000),
  "é".repeat(2000),
  "💥👩‍👩‍👧",
  "\u202e\u200b\u2028",
  "a\u0000b",
  "../../etc/passwd",
  "' OR 1=1 --",
  "2024-13-45T99:99:99Z",
  "-271821-04-20T00:00:00.000Z",
  "+275760-09-13T00:00:00.000Z",
  "00000000-0000-0000-0000-000000000000",
];

/** Values every JSON body field is sent: the texts above as strings, and values of every other JSON type. */
const EXTREME_JSON: unknown[] = [
  ...EXTREME_TEXT,
  null,
  true,
  0,
  new Raw("-0"),
  1.5,
  new Raw(TWO_63),
  new Raw(`-${TWO_63}`),
  new Raw("1e400"),
  new Raw("0.1000000000000000000000000000000000000001"),
  1e308,
  [],
  ["x".repeat(300)],
  {},
  [[[[[[[[[[[]]]]]]]]]]],
];

/** Fewer values for the fields inside a rule document, which the schema leaves open: one of each kind. */
const CORE_JSON: unknown[] = [
  null,
  true,
  0,
  new Raw("-0"),
  new Raw(TWO_63),
  new Raw("1e400"),
  "",
  "-1",
  "1e400",
  TWO_63,
  "0.1000000000000000000000000000000000000001",
  "x".repeat(5000),
  "a\u0000b",
  "\u202e💥",
  [],
  {},
];

/** Serialises a JSON body, writing each Raw as its literal text. */
function serialise(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)] as string);
}

/** One parameter of an operation: where it goes and its name (a dotted path for body fields). */
interface Param {
  in: "path" | "query" | "header" | "body" | "csv";
  name: string;
}

/** An operation of a document with everything needed to call it validly. */
interface Operation {
  api: OpenApiName;
  method: string;
  template: string;
  params: Param[];
  secured: boolean;
  body: "json" | "csv" | null;
}

function resolve(doc: Any, node: Any): Any {
  if (!node || typeof node.$ref !== "string") return node;
  return resolve(
    doc,
    (node.$ref as string)
      .slice(2)
      .split("/")
      .reduce((n: Any, k: string) => n[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc),
  );
}

/** Property paths of a JSON schema, one nested level deep (`events.0.amount` for an array of objects). */
function schemaFields(doc: Any, schema: Any, prefix = "", depth = 0): string[] {
  const s = resolve(doc, schema);
  if (!s || depth > 1) return [];
  const out: string[] = [];
  for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, Any>)) {
    const path = `${prefix}${name}`;
    out.push(path);
    const child = resolve(doc, sub);
    if (child?.type === "array" && child.items) out.push(...schemaFields(doc, child.items, `${path}.0.`, depth + 1));
    else out.push(...schemaFields(doc, child, `${path}.`, depth + 1));
  }
  return out;
}

/** Leaf paths of a baseline body (reaches into a rule document the schema leaves open). */
function leafPaths(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object") return prefix ? [prefix.slice(0, -1)] : [];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, `${prefix}${k}.`));
}

function operationsOf(api: OpenApiName): Operation[] {
  const { doc } = loadOpenApi(api);
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Any>)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const params: Param[] = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p: Any) => resolve(doc, p))
        .filter((p: Any) => ["path", "query", "header"].includes(p.in))
        .map((p: Any) => ({ in: p.in, name: p.name }));
      const content = resolve(doc, op.requestBody)?.content ?? {};
      const body = content["application/json"] ? "json" : content["text/csv"] ? "csv" : null;
      if (body === "json") for (const name of schemaFields(doc, content["application/json"].schema)) params.push({ in: "body", name });
      if (body === "csv") for (const name of ["account_id", "identity_type", "amount", "reg_event_id"]) params.push({ in: "csv", name });
      const security = op.security ?? doc.security ?? [];
      out.push({ api, method: method.toUpperCase(), template, params, secured: security.some((s: object) => Object.keys(s).length > 0), body });
    }
  }
  return out;
}

let stack: Stack;
const ids = { campaign: "", regEvent: "", user: "", identity: "", importId: "", apiKey: "", token: "", portalToken: "" };

const wallet = `0x${"ab".repeat(20)}`;
const rules = () => ({
  primaryCurrency: "xp",
  currencies: { xp: { name: "Experience", decimals: 2, tiers: [{ key: "t", name: "T", minLifetime: "10" }] } },
  rules: [{ id: "volume", regEventId: ids.regEvent, currency: "xp", base: { kind: "perUnit", points: "2" } }],
});
const event = () => ({ account_id: wallet, identity_type: "EVM_ADDRESS", amount: "1.5", reg_event_id: ids.regEvent });

/** A valid body for each operation that takes one, so the one field changed is the only thing wrong. */
function baselineBody(op: Operation): unknown {
  const key = `${op.method} ${op.template}`;
  const bodies: Record<string, () => unknown> = {
    "POST /api/auth/login": () => ({ email: "nobody@pointwise.test", password: "not the password at all" }),
    "POST /api/me/password": () => ({ current_password: "not the password at all", new_password: "another long password" }),
    // A fresh e-mail each time: the bounds of the fields are under test here, not two invitations of one address at once.
    "POST /api/operators": () => ({ email: `${randomUUID()}@pointwise.test`, password: "another long password" }),
    "POST /api/campaigns": () => ({ name: "Bounds", currencies: { xp: "Experience" }, primary_currency: "xp" }),
    "PATCH /api/campaigns/{campaign_id}": () => ({ name: "Bounds", starts_at: "2020-01-01T00:00:00.000Z", ends_at: null }),
    "PUT /api/campaigns/{campaign_id}/bad-words": () => ({ bad_words: ["darn"] }),
    "POST /api/campaigns/{campaign_id}/api-keys": () => ({ label: "bounds" }),
    "POST /api/campaigns/{campaign_id}/event-types": () => ({ name: "trade", description: "a trade" }),
    "POST /api/campaigns/{campaign_id}/rule-versions": () => ({ document: rules() }),
    "POST /api/campaigns/{campaign_id}/rule-versions/validate": () => ({ document: rules() }),
    "POST /api/campaigns/{campaign_id}/rule-versions/{version}/dry-run": () => ({ at: "2030-01-01T00:00:00.000Z", currency: "xp", limit: 10 }),
    "PATCH /api/campaigns/{campaign_id}/users/{user_id}": () => ({ referrer_id: null }),
    "POST /api/campaigns/{campaign_id}/users/{user_id}/identities": () => ({ identity_type: "EMAIL", account_id: "bounds@example.com" }),
    "PATCH /api/campaigns/{campaign_id}/users/{user_id}/identities/{identity_id}": () => ({ handle: "bounds" }),
    "POST /api/campaigns/{campaign_id}/exclusions": () => ({ identity_type: "EMAIL", account_id: "bounds-excluded@example.com", reason: "bounds" }),
    "POST /api/exclusions": () => ({ identity_type: "EMAIL", account_id: "bounds-excluded@example.com", reason: "bounds" }),
    "POST /api/campaigns/{campaign_id}/adjustments": () => ({ user_id: ids.user, currency: "xp", points: "1.5", reason: "bounds" }),
    "POST /api/rest/earn-event": event,
    // portal-api: bodies that pass validation and reach the checks behind it (the message and codes are refused there).
    "POST /auth/nonce": () => ({ campaign_id: ids.campaign }),
    "POST /auth/wallet": () => ({ campaign_id: ids.campaign, wallet: "evm", message: "not a sign-in message", signature: "0x00" }),
    "POST /auth/email/start": () => ({ campaign_id: ids.campaign, email: "bounds@example.org" }),
    "POST /auth/email/verify": () => ({ campaign_id: ids.campaign, email: "bounds@example.org", code: "000000" }),
    "POST /auth/refresh": () => ({ refresh_token: "pwr_not-a-token" }),
    "PATCH /me": () => ({ display_name: "Bounds" }),
    "POST /me/referrer": () => ({ referral_code: "ZZZZZZZZ" }),
    "POST /me/wallets": () => ({ wallet: "evm", message: "not a sign-in message", signature: "0x00" }),
    "POST /me/email/start": () => ({ email: "bounds-link@example.org" }),
    "POST /me/email/verify": () => ({ email: "bounds-link@example.org", code: "000000" }),
    "POST /api/rest/earn-events": () => ({ events: [event()] }),
  };
  return bodies[key]?.() ?? {};
}

/** The value of a path or query parameter when it is not the one being changed. */
function baselineParam(op: Operation, param: Param): string | undefined {
  if (param.in === "query") return undefined;
  if (param.in === "header") return undefined;
  switch (param.name) {
    case "campaign_id":
      return ids.campaign;
    case "user_id":
      return ids.user;
    case "identity_id":
      return op.method === "DELETE" ? randomUUID() : ids.identity;
    case "version":
      return "1";
    case "import_id":
      return ids.importId;
    default:
      // Keys, event types, jobs and operators that do not exist: nothing of the seeded campaign is revoked or retired.
      return randomUUID();
  }
}

function setPath(target: Any, path: string, value: unknown): Any {
  const keys = path.split(".");
  const root = structuredClone(target ?? {});
  let node = root;
  for (const [i, k] of keys.entries()) {
    if (i === keys.length - 1) {
      node[k] = value;
      break;
    }
    if (node[k] === null || typeof node[k] !== "object") node[k] = /^\d+$/.test(keys[i + 1] as string) ? [] : {};
    node = node[k];
  }
  return root;
}

const csvCell = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** Sends `op` with `param` set to `value` (every other parameter valid); the status and the error codes answered. */
async function send(op: Operation, param: Param, value: unknown): Promise<{ status: number; codes: string[]; text: string }> {
  const base = { admin: stack.admin.url, read: stack.read.url, ingest: stack.ingest.url, portal: stack.portal?.url }[op.api];
  const pathParams = op.params.filter((p) => p.in === "path");
  let path = op.template;
  for (const p of pathParams) {
    const v = p === param ? String(value) : (baselineParam(op, p) as string);
    path = path.replace(`{${p.name}}`, encodeURIComponent(v));
  }
  const query = new URLSearchParams();
  if (op.template.startsWith("/leaderboard")) query.set("campaign_id", ids.campaign);
  if (param.in === "query") {
    query.delete(param.name);
    for (const v of Array.isArray(value) ? value : [value]) query.append(param.name, String(v));
  }
  const headers: Record<string, string> = {};
  if (op.secured) {
    if (op.api === "admin") headers.authorization = `Bearer ${ids.token}`;
    if (op.api === "ingest") headers.authorization = `Bearer ${ids.apiKey}`;
    if (op.api === "read") headers["x-api-key"] = ids.apiKey;
    if (op.api === "portal") headers.authorization = `Bearer ${ids.portalToken}`;
  }
  let body: string | undefined;
  if (op.body === "json") {
    headers["content-type"] = "application/json";
    body = serialise(param.in === "body" ? setPath(baselineBody(op), param.name, value) : baselineBody(op));
  }
  if (op.body === "csv") {
    headers["content-type"] = "text/csv";
    const row: Record<string, string> = { ...event() };
    if (param.in === "csv") row[param.name] = String(value);
    body = `account_id,identity_type,amount,reg_event_id\n${["account_id", "identity_type", "amount", "reg_event_id"].map((c) => csvCell(row[c] as string)).join(",")}\n`;
  }
  if (param.in === "header") headers[param.name.toLowerCase()] = String(value);
  // A header value no HTTP client can send (a NUL, a line break, a character past U+00FF) never reaches the app.
  if (param.in === "header" && !/^[\t\x20-\x7e\x80-\xff]*$/.test(String(value))) return { status: 0, codes: [], text: "" };
  const url = `${base}${path}${query.size > 0 ? `?${query}` : ""}`;
  const res = await fetch(url, { method: op.method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: Any = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  const codes: string[] = [
    ...(parsed?.error?.code ? [parsed.error.code] : []),
    ...((parsed?.errors ?? []) as Any[]).map((e) => e?.extensions?.code),
    ...((parsed?.data?.results ?? []) as Any[]).flatMap((r) => (r?.errors ?? []).map((e: Any) => e?.extensions?.code)),
  ];
  return { status: res.status, codes, text };
}

/** Fails with the request that answered 5xx (or `internal` inside ingest's 200 envelope). */
async function expectNoFault(op: Operation, param: Param, value: unknown): Promise<void> {
  const answer = await send(op, param, value);
  const shown = value instanceof Raw ? value.text : JSON.stringify(value);
  const what = `${op.method} ${op.template} with ${param.in} ${param.name} = ${shown?.slice(0, 120)}`;
  if (answer.status >= 500 || answer.codes.includes("internal") || answer.codes.includes("service-unavailable")) {
    const app = { admin: stack.admin, read: stack.read, ingest: stack.ingest, portal: stack.portal }[op.api];
    const logged = (app?.output() ?? "")
      .split("\n")
      .filter((l) => /error/i.test(l))
      .slice(-2)
      .join("\n");
    throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}\n${logged.slice(0, 1500)}`);
  }
}

/** Runs `tasks` a few at a time, so the apps are busy without queueing thousands of sockets. */
async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

beforeAll(async () => {
  stack = await startStack({
    operator: OPERATOR,
    name: "bounds",
    portal: true,
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT_EVENTS_PER_SECOND: "1000000",
      RATE_LIMIT_BURST: "1000000",
      LOOKUP_CACHE_MS: "0",
      // portal-api's sign-in limits would otherwise answer 429 long before every value was sent.
      PORTAL_ATTEMPTS_PER_IP: "100000",
      PORTAL_ATTEMPTS_PER_IDENTITY: "10000",
    },
  });
  ids.token = (await signInOperator(stack.admin.url, OPERATOR)).token;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.admin.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ids.token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Any;
  };
  ids.campaign = (await admin("POST", "/api/campaigns", { name: "Bounds", currencies: { xp: "Experience" }, primary_currency: "xp" })).id;
  ids.regEvent = (await admin("POST", `/api/campaigns/${ids.campaign}/event-types`, { name: "trade" })).reg_event_id;
  ids.apiKey = (await admin("POST", `/api/campaigns/${ids.campaign}/api-keys`, { label: "bounds" })).key;
  await admin("POST", `/api/campaigns/${ids.campaign}/rule-versions`, { document: rules() });
  await fetch(`${stack.ingest.url}/api/rest/earn-event`, {
    method: "POST",
    headers: { authorization: `Bearer ${ids.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(event()),
  });
  await waitUntil(
    async () => (await admin("GET", `/api/campaigns/${ids.campaign}/users?identity_type=EVM_ADDRESS&account_id=${wallet}`)).id !== undefined,
    20_000,
  );
  const user = await admin("GET", `/api/campaigns/${ids.campaign}/users?identity_type=EVM_ADDRESS&account_id=${wallet}`);
  ids.user = user.id;
  ids.identity = user.identities[0].id;
  const upload = await fetch(`${stack.ingest.url}/api/rest/earn-events/csv`, {
    method: "POST",
    headers: { authorization: `Bearer ${ids.apiKey}`, "content-type": "text/csv" },
    body: `account_id,identity_type,amount,reg_event_id\n${wallet},EVM_ADDRESS,1,${ids.regEvent}\n`,
  });
  ids.importId = ((await upload.json()) as Any).data.import_id;
  // A fresh wallet signed in to portal-api: the token its operations are sent with.
  ids.portalToken = (await signInWithWallet(stack.portal?.url as string, ids.campaign, Wallet.createRandom())).accessToken;
  expect(ids).toEqual(Object.fromEntries(Object.keys(ids).map((k) => [k, expect.any(String)])));
});
afterAll(async () => {
  await stack?.stop();
  await stack?.drop();
});

// Operations that end the session the test signs in with would only turn the rest into 401s.
const SKIPPED = /\/(logout|sign-out|sessions?)(\/|$)/;
const operations = (["read", "ingest", "admin", "portal"] as const).flatMap((api) => operationsOf(api)).filter((op) => !SKIPPED.test(op.template));

/** Every place a value can go: the documented parameters and the leaf fields of the baseline body. */
function paramsOf(op: Operation): Param[] {
  const fromBody = op.body === "json" ? leafPaths(baselineBody(op)).map((name): Param => ({ in: "body", name })) : [];
  const all = [...op.params, ...fromBody];
  return all.filter((p, i) => all.findIndex((q) => q.in === p.in && q.name === p.name) === i);
}

describe("no parameter value makes an API answer 5xx", () => {
  it("reads every operation of the four documents", () => {
    expect(operations.length).toBeGreaterThan(55);
    const names = operations.map((o) => `${o.method} ${o.template}`);
    expect(names).toContain("GET /api/campaigns/{campaign_id}/users/{user_id}/ledger");
    expect(names).toEqual(expect.arrayContaining(["POST /auth/wallet", "POST /me/email/verify", "GET /oauth/{provider}/callback"]));
  });

  it.each(operations.map((op) => [`${op.api} ${op.method} ${op.template}`, op] as const))("%s: every extreme value of every parameter", async (_name, op) => {
    const params = paramsOf(op);
    const documented = new Set(op.params.map((p) => `${p.in} ${p.name}`));
    const valuesOf = (param: Param): unknown[] => {
      if (param.in !== "body") return [...EXTREME_TEXT, ...(param.in === "query" ? [["1", "2"]] : [])];
      return documented.has(`body ${param.name}`) ? EXTREME_JSON : CORE_JSON;
    };
    const cases = params.flatMap((param) => valuesOf(param).map((value) => ({ param, value })));
    await inBatches(cases, 6, ({ param, value }) => expectNoFault(op, param, value));
  });

  it.each(operations.filter((op) => paramsOf(op).length > 0).map((op) => [`${op.api} ${op.method} ${op.template}`, op] as const))(
    "%s: random values of every parameter",
    async (_name, op) => {
      const params = paramsOf(op);
      const text = fc.oneof(
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
        fc.double().map(String),
        fc.constantFrom(...EXTREME_TEXT),
      );
      const json = fc.oneof(
        text,
        fc.jsonValue({ maxDepth: 2 }),
        fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => new Raw(String(n))),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...params), text, json, async (param, t, j) => expectNoFault(op, param, param.in === "body" ? j : t)),
        { numRuns: 10 },
      );
    },
  );
});

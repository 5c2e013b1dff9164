// Seeds the demo campaign through admin-api (as an operator would) and prints how to use it.
// Idempotent: a second `npm start` reuses the campaign, event type and saved demo key.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");
// Where the demo key is kept between starts; POINTWISE_DEMO_STATE moves it (the end-to-end test of this script does).
const stateFile = process.env.POINTWISE_DEMO_STATE ?? path.join(root, ".pointwise", "demo.json");
const admin = `http://127.0.0.1:${process.env.ADMIN_PORT ?? 4003}`;
const ingest = process.env.INGEST_PUBLIC_URL ?? "http://127.0.0.1:4001";
const read = process.env.READ_API_URL ?? "http://127.0.0.1:4002";
const portal = process.env.PORTAL_PUBLIC_URL ?? "http://127.0.0.1:4005";
const CAMPAIGN_ID = "demo-2026";
const EVENT_NAME = "swap_volume";

// biome-ignore lint/suspicious/noExplicitAny: a throwaway script reading a few fields of admin-api answers
async function api(method: string, url: string, token?: string, body?: unknown): Promise<any> {
  const res = await fetch(`${admin}${url}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The demo rules: 1 xp per unit of swap volume (at least 1), double on weekends; 1 gem per swap. */
function demoRules(regEventId: string) {
  return {
    campaignId: CAMPAIGN_ID,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 }, gems: { name: "Gems", decimals: 0 } },
    rules: [
      {
        id: "swap-volume",
        regEventId,
        currency: "xp",
        base: { kind: "perUnit", points: "1" },
        minAmount: "1",
        multipliers: [{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }],
      },
      { id: "swap-count", regEventId, currency: "gems", base: { kind: "fixed", points: "1" } },
    ],
  };
}

async function main(): Promise<void> {
  const email = process.env.ADMIN_EMAIL as string;
  const password = process.env.ADMIN_PASSWORD as string;
  const { token } = await api("POST", "/api/auth/login", undefined, { email, password });

  const { campaigns } = await api("GET", "/api/campaigns", token);
  if (!campaigns.some((c: { id: string }) => c.id === CAMPAIGN_ID)) {
    await api("POST", "/api/campaigns", token, {
      id: CAMPAIGN_ID,
      name: "Demo season 2026",
      currencies: { xp: "Experience", gems: "Gems" },
      primary_currency: "xp",
    });
  }

  const { event_types } = await api("GET", `/api/campaigns/${CAMPAIGN_ID}/event-types`, token);
  let regEventId: string = event_types.find((t: { name: string }) => t.name === EVENT_NAME)?.reg_event_id;
  if (!regEventId) {
    regEventId = (await api("POST", `/api/campaigns/${CAMPAIGN_ID}/event-types`, token, { name: EVENT_NAME, description: "Swap volume in USD" })).reg_event_id;
    const version = await api("POST", `/api/campaigns/${CAMPAIGN_ID}/rule-versions`, token, { document: demoRules(regEventId) });
    await api("POST", `/api/campaigns/${CAMPAIGN_ID}/rule-versions/${version.version}/activate`, token, {});
  }

  // The key is shown once by the API; keep the demo's copy locally so restarts reuse it.
  const saved = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
  const { api_keys } = await api("GET", `/api/campaigns/${CAMPAIGN_ID}/api-keys`, token);
  const stillValid = api_keys.some((k: { prefix: string; revoked_at: string | null }) => saved.apiKey?.startsWith(k.prefix) && !k.revoked_at);
  let apiKey: string = saved.apiKey;
  if (!stillValid) {
    apiKey = (await api("POST", `/api/campaigns/${CAMPAIGN_ID}/api-keys`, token, { label: "demo" })).key;
    writeFileSync(stateFile, JSON.stringify({ apiKey }, null, 2), { mode: 0o600 });
  }

  const body = JSON.stringify({
    account_id: "0x52908400098527886E0F7030069857D2E4169EE7",
    identity_type: "EVM_ADDRESS",
    amount: "125.5",
    reg_event_id: regEventId,
  });
  process.stdout.write(`
  Pointwise is running.

  Dashboard   ${admin}            sign in as ${email} / ${password}
  Ingest API  ${ingest}/api/rest/earn-event
  Read API    ${read}/leaderboard?campaign_id=${CAMPAIGN_ID}
  Portal      ${portal}/?campaign=${CAMPAIGN_ID}   participants sign in with a browser wallet

  Send an event (campaign ${CAMPAIGN_ID}, event type ${EVENT_NAME}):

    curl -s -X POST ${ingest}/api/rest/earn-event \\
      -H 'Authorization: Bearer ${apiKey}' \\
      -H 'Content-Type: application/json' \\
      -d '${body}'

  Read the leaderboard (cached for about a minute):

    curl -s '${read}/leaderboard?campaign_id=${CAMPAIGN_ID}&limit=10'

  A user's own scores (the dashboard's Users page shows user ids):

    curl -s ${read}/users/<user_id>/scores -H "Authorization: Bearer $(node --import tsx scripts/demo-token.ts <user_id>)"
    curl -s ${read}/users/<user_id>/scores -H 'X-API-Key: ${apiKey}'

  Ctrl-C stops everything.
`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

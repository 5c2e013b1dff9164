// npm start's demo seeding (scripts/seed-demo.ts) against the running apps: the campaign it makes, the curls it prints working as printed, and a second start reusing all of it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot, waitUntil } from "@pointwise/testkit";
import { call, OPERATOR, type OperatorSession, type Stack, signInOperator, startStack } from "./stack";

const run = promisify(execFile);
const CAMPAIGN = "demo-2026";

let stack: Stack;
let operator: OperatorSession;
const dir = mkdtempSync(path.join(os.tmpdir(), "pw-demo-"));
const stateFile = path.join(dir, "demo.json");

beforeAll(async () => {
  stack = await startStack();
  operator = await signInOperator(stack.admin.url, OPERATOR);
});
afterAll(async () => {
  await stack?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the seeding script as `npm start` does, against this stack's apps; its standard output. */
async function seed(): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/seed-demo.ts"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      ADMIN_PORT: new URL(stack.admin.url).port,
      ADMIN_EMAIL: OPERATOR.email,
      ADMIN_PASSWORD: OPERATOR.password,
      INGEST_PUBLIC_URL: stack.ingest.url,
      READ_API_URL: stack.read.url,
      PORTAL_PUBLIC_URL: "http://127.0.0.1:4005",
      POINTWISE_DEMO_STATE: stateFile,
    },
  });
  return stdout;
}

/** The printed command that sends an event, from `curl` to the end of its body. */
function sendCommand(printed: string): string {
  const command = /curl -s -X POST [^\n]*\\\n[^\n]*\\\n[^\n]*\\\n\s*-d '[^']*'/.exec(printed)?.[0];
  if (command === undefined) throw new Error(`no send command in:\n${printed}`);
  return command;
}

/** Runs a printed command exactly as a person pasting it into a shell would; its output as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field
async function paste(command: string): Promise<any> {
  const { stdout } = await run("bash", ["-c", command]);
  return JSON.parse(stdout);
}

const keyIn = (printed: string) => /Authorization: Bearer (pw_[a-z0-9]+)'/.exec(printed)?.[1];

describe("the demo campaign npm start seeds", () => {
  let printed = "";

  it("creates demo-2026 with its event type and active rules, and prints the apps' URLs and the operator's sign-in", async () => {
    printed = await seed();
    expect(printed).toContain("Pointwise is running.");
    expect(printed).toContain(`Dashboard   ${stack.admin.url}            sign in as ${OPERATOR.email} / ${OPERATOR.password}`);
    expect(printed).toContain(`Ingest API  ${stack.ingest.url}/api/rest/earn-event`);
    expect(printed).toContain(`Read API    ${stack.read.url}/leaderboard?campaign_id=${CAMPAIGN}`);

    const campaigns = await call("GET", `${stack.admin.url}/api/campaigns`, undefined, operator.auth);
    expect(campaigns.body.campaigns.map((c: { id: string }) => c.id)).toEqual([CAMPAIGN]);
    const types = await call("GET", `${stack.admin.url}/api/campaigns/${CAMPAIGN}/event-types`, undefined, operator.auth);
    expect(types.body.event_types.map((t: { name: string }) => t.name)).toEqual(["swap_volume"]);
    expect(printed).toContain(`"reg_event_id":"${types.body.event_types[0].reg_event_id}"`);
    await waitUntil(
      async () => (await call("GET", `${stack.admin.url}/api/campaigns/${CAMPAIGN}/rule-versions/1`, undefined, operator.auth)).body.status === "active",
      20_000,
      "the demo rules to become active",
    );
  });

  it("keeps the key it printed in its state file, readable by the owner only", () => {
    const key = keyIn(printed);
    expect(key).toMatch(/^pw_/);
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toEqual({ apiKey: key });
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
  });

  it("prints a send command that works as printed, and a leaderboard read that then shows the points its rules give", async () => {
    const sent = await paste(sendCommand(printed));
    expect(sent.data.event_id).toEqual(expect.any(String));
    // The demo rules: 1 xp per unit of volume, doubled on Saturdays and Sundays (UTC), and 1 gem per event.
    const weekend = [0, 6].includes(new Date(sent.data.received_at).getUTCDay());
    const xp = weekend ? 251 : 125.5;

    const leaderboard = /curl -s '([^']+)'/.exec(printed)?.[0] as string;
    expect(leaderboard).toContain(`${stack.read.url}/leaderboard?campaign_id=${CAMPAIGN}&limit=10`);
    let board: { entries: { user_id: string; scores: Record<string, { total: number }> }[] } = { entries: [] };
    await waitUntil(
      async () => {
        board = await paste(leaderboard);
        return board.entries.length === 1 && board.entries[0]?.scores.xp?.total === xp;
      },
      20_000,
      "the demo event on the leaderboard",
    );
    expect(board.entries[0]?.scores.gems?.total).toBe(1);

    // The user's own scores with the campaign's key, as the last printed command reads them.
    const scoresLine = /curl -s (\S+)\/users\/<user_id>\/scores -H 'X-API-Key: [^']+'/.exec(printed)?.[0] as string;
    const scores = await paste(scoresLine.replace("<user_id>", board.entries[0]?.user_id as string));
    expect(scores.scores.xp.total).toBe(xp);
  });

  it("reuses the campaign, rules and key when started again, and makes a new key only when the saved one was revoked", async () => {
    const again = await seed();
    expect(keyIn(again)).toBe(keyIn(printed));
    const versions = await call("GET", `${stack.admin.url}/api/campaigns/${CAMPAIGN}/rule-versions`, undefined, operator.auth);
    expect(versions.body.rule_versions).toHaveLength(1);
    const keys = await call("GET", `${stack.admin.url}/api/campaigns/${CAMPAIGN}/api-keys`, undefined, operator.auth);
    expect(keys.body.api_keys).toHaveLength(1);

    const revoked = await call("POST", `${stack.admin.url}/api/campaigns/${CAMPAIGN}/api-keys/${keys.body.api_keys[0].id}/revoke`, {}, operator.auth);
    expect(revoked.status).toBe(200);
    const third = await seed();
    const fresh = keyIn(third);
    expect(fresh).toMatch(/^pw_/);
    expect(fresh).not.toBe(keyIn(printed));
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toEqual({ apiKey: fresh });
    const sent = await paste(sendCommand(third));
    expect(sent.data.event_id).toEqual(expect.any(String));
  });
});

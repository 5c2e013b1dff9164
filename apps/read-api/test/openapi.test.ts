// read-api's OpenAPI document: its examples match its schemas, and every answer the service gives matches it.
import { loadOpenApi, seedApiKey, seedCampaign, seedIdentity, seedScore, seedUser } from "@pointwise/testkit";
import jwt from "jsonwebtoken";
import { get, startReadApi, type TestReadApi } from "./support";

const SECRET = "openapi-test-secret-openapi-test-secret-0";
const openapi = loadOpenApi("read");
const doc = openapi.doc;

/** Checks a response against the document: the status must be listed and the JSON body must match its schema. */
const conforms = (template: string, status: number, body: unknown) => openapi.check("GET", template, status, body);

let api: TestReadApi;

beforeAll(async () => {
  api = await startReadApi({ PORTAL_JWT_SECRET: SECRET });
});
afterAll(async () => {
  await api?.close();
});

describe("docs/api/read.openapi.yaml", () => {
  it("documents the three endpoints, and its examples match its own schemas", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(["/leaderboard", "/leaderboard/around/{user_id}", "/users/{user_id}/scores"]);
    for (const [template, item] of Object.entries<{ get: { responses: Record<string, { content?: Record<string, { example?: unknown }> }> } }>(doc.paths)) {
      for (const [status, response] of Object.entries(item.get.responses)) {
        const example = response.content?.["application/json"]?.example;
        if (example !== undefined) conforms(template, Number(status), example);
      }
    }
  });

  it("describes every answer the service gives", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP", gems: "Gems" } });
    const key = (await seedApiKey(api.db, campaign)).key;
    const users: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await seedUser(api.db, campaign, { displayName: i === 0 ? null : `Player ${i}` });
      if (i === 0) await seedIdentity(api.db, campaign, id, "X_PROVIDER_ID", "1460283925139238912", "moon_x");
      await seedScore(api.db, campaign, id, "xp", { score: String(10 * i), referral: "1.5", tier: i === 2 ? "gold" : null });
      users.push(id);
    }
    const [u0, u1] = users as [string, string];
    const token = (sub: string, exp = Math.floor(Date.now() / 1000) + 60) =>
      `Bearer ${jwt.sign({ sub, iss: "pointwise-portal", aud: "pointwise-read-api", exp }, SECRET)}`;
    const unknown = "0b5e4c1a-0000-4000-8000-000000000000";
    const calls: [string, string, Record<string, string>?][] = [
      ["/leaderboard", `/leaderboard?campaign_id=${campaign}`],
      ["/leaderboard", `/leaderboard?campaign_id=${campaign}&limit=0`],
      ["/leaderboard", "/leaderboard?campaign_id=Nope"],
      ["/leaderboard", "/leaderboard?campaign_id=zz99-zz99"],
      ["/leaderboard/around/{user_id}", `/leaderboard/around/${u1}?campaign_id=${campaign}&n=1`],
      ["/leaderboard/around/{user_id}", `/leaderboard/around/x?campaign_id=${campaign}`],
      ["/leaderboard/around/{user_id}", `/leaderboard/around/${unknown}?campaign_id=${campaign}`],
      ["/users/{user_id}/scores", `/users/${u0}/scores`, { "x-api-key": key }],
      ["/users/{user_id}/scores", `/users/${u1}/scores`, { authorization: token(u1) }],
      ["/users/{user_id}/scores", "/users/x/scores", { authorization: token(u1) }],
      ["/users/{user_id}/scores", `/users/${u1}/scores`, {}],
      ["/users/{user_id}/scores", `/users/${u1}/scores`, { authorization: token(u1, 1) }],
      ["/users/{user_id}/scores", `/users/${u1}/scores`, { authorization: token(u0) }],
      ["/users/{user_id}/scores", `/users/${unknown}/scores`, { "x-api-key": key }],
    ];
    const statuses = new Set<number>();
    for (const [template, url, headers] of calls) {
      const res = await get(`${api.url}${url}`, headers);
      statuses.add(res.status);
      conforms(template, res.status, res.body);
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404]);
  });
});

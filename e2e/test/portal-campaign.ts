// Test support for the portal tests: a campaign with an API key, an event type and an active rule (2 xp per unit), set up through admin-api;
// and the participant page's wait for a score.
import { waitUntil } from "@pointwise/testkit";
import type { Page } from "playwright-core";
import { call, OPERATOR, type Stack } from "./stack";

/** What the portal tests need of a campaign. */
export interface PortalCampaign {
  campaignId: string;
  apiKey: string;
  regEventId: string;
  /** Sends one earn event through ingest-api. */
  earn(account: string, identityType: string, amount: string): ReturnType<typeof call>;
}

/** Creates "Season 1" with currency xp (2 decimals) and one rule paying 2 xp per unit, and waits until the rule is active. */
export async function setUpCampaign(stack: Stack): Promise<PortalCampaign> {
  const login = await call("POST", `${stack.admin.url}/api/auth/login`, OPERATOR);
  const auth = { authorization: `Bearer ${login.body.token}` };
  const campaign = await call("POST", `${stack.admin.url}/api/campaigns`, { name: "Season 1", currencies: { xp: "Experience" }, primary_currency: "xp" }, auth);
  const campaignId = campaign.body.id as string;
  const apiKey = (await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/api-keys`, {}, auth)).body.key as string;
  const regEventId = (await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/event-types`, { name: "trade_volume" }, auth)).body
    .reg_event_id as string;
  const document = {
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 } },
    rules: [{ id: "volume", regEventId, currency: "xp", base: { kind: "perUnit", points: "2" } }],
  };
  const rules = await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/rule-versions`, { document }, auth);
  await call("POST", `${stack.admin.url}/api/campaigns/${campaignId}/rule-versions/${rules.body.version}/activate`, {}, auth);
  await waitUntil(
    async () => (await call("GET", `${stack.admin.url}/api/campaigns/${campaignId}/rule-versions/1`, undefined, auth)).body.status === "active",
    15_000,
    "rule version 1 to become active",
  );
  return {
    campaignId,
    apiKey,
    regEventId,
    earn: (account, identityType, amount) =>
      call(
        "POST",
        `${stack.ingest.url}/api/rest/earn-event`,
        { account_id: account, identity_type: identityType, amount, reg_event_id: regEventId },
        { authorization: `Bearer ${apiKey}` },
      ),
  };
}

/** Waits until the participant page shows `scores` (e.g. "Experience: 9"): it reads them whenever it renders, and saving the name renders it. */
export async function waitForScores(page: Page, scores: string): Promise<void> {
  await waitUntil(
    async () => {
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForTimeout(300);
      return (await page.locator("#scores").textContent()) === scores;
    },
    20_000,
    `the page to show ${scores}`,
  );
}

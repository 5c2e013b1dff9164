// Test support for the portal tests: a campaign with an API key, an event type and an active rule (2 xp per unit), set up through admin-api by an operator who stays signed in;
// and the participant page's waits for its signed-in view to be drawn and for a score.
import { waitUntil } from "@pointwise/testkit";
import type { Page } from "playwright-core";
import { call, OPERATOR, type Stack, signInOperator } from "./stack";

/** What the portal tests need of a campaign. */
export interface PortalCampaign {
  campaignId: string;
  apiKey: string;
  regEventId: string;
  /** The operator's Authorization header and the campaign's path in admin-api's API, for setting up rewards. */
  admin: { auth: Record<string, string>; base: string };
  /** Sends one earn event through ingest-api. */
  earn(account: string, identityType: string, amount: string): ReturnType<typeof call>;
}

/** Creates "Season 1" with currency xp (2 decimals) and one rule paying 2 xp per unit, and waits until the rule is active. */
export async function setUpCampaign(stack: Stack): Promise<PortalCampaign> {
  const { auth } = await signInOperator(stack.admin.url, OPERATOR);
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
    admin: { auth, base: `${stack.admin.url}/api/campaigns/${campaignId}` },
    earn: (account, identityType, amount) =>
      call(
        "POST",
        `${stack.ingest.url}/api/rest/earn-event`,
        { account_id: account, identity_type: identityType, amount, reg_event_id: regEventId },
        { authorization: `Bearer ${apiKey}` },
      ),
  };
}

/** What drawnAfter uses of the browser. */
interface Browser {
  document: { getElementById(id: string): { hasAttribute(name: string): boolean } };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: { attributeFilter: string[] }): void; disconnect(): void };
}

/**
 * Does `action` and waits until the participant page's signed-in view has been drawn after it. The view is aria-busy
 * while it is drawn: the wait starts once it is not, and ends the next time it stops being so.
 */
export async function drawnAfter(page: Page, action: () => Promise<unknown>): Promise<void> {
  await page.locator("#signed-in:not([aria-busy])").waitFor();
  const next = await page.evaluateHandle(() => {
    // The page's own DOM (this package's TypeScript has no DOM library).
    const { document, MutationObserver } = globalThis as unknown as Browser;
    const view = document.getElementById("signed-in");
    return {
      drawn: new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the signed-in view was not drawn within 15 s")), 15_000);
        let busy = false;
        const observer = new MutationObserver(() => {
          if (view.hasAttribute("aria-busy")) {
            busy = true;
            return;
          }
          if (!busy) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        });
        observer.observe(view, { attributeFilter: ["aria-busy"] });
      }),
    };
  });
  await action();
  await next.evaluate((n) => n.drawn);
  await next.dispose();
}

/** Waits until the participant page shows `scores` (e.g. "Experience: 9"): it reads them whenever it renders, and saving the name renders it. */
export async function waitForScores(page: Page, scores: string): Promise<void> {
  await waitUntil(
    async () => {
      await drawnAfter(page, () => page.getByRole("button", { name: "Save" }).click());
      return (await page.locator("#scores").textContent()) === scores;
    },
    20_000,
    `the page to show ${scores}`,
  );
}

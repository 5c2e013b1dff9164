// The participant page takes tokens on chain: in headless Chromium with an injected EIP-1193 wallet (a real funded key on a
// local hardhat node with the claim contract), it claims a published epoch's tokens with the API's proof and redeems a
// burn voucher, asking the wallet to switch to the claim chain first, shows an expired voucher as such and still renders
// when the wallet's node does not answer; the balances are read from the token itself.

import { generateKeyPairSync } from "node:crypto";
import { injectWallet, openBrowser, waitUntil } from "@pointwise/testkit";
import type { Contract, HDNodeWallet } from "ethers";
import { type ClaimsChain, startClaimsChain } from "../../apps/admin-api/test/claims-chain-setup";
import { type PortalCampaign, setUpCampaign, waitForScores } from "./portal-campaign";
import { call, type Stack, startStack } from "./stack";

const E18 = 10n ** 18n;

let chain: ClaimsChain;
let stack: Stack;
let campaign: PortalCampaign;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let participant: HDNodeWallet;

/** What the injected wallet was asked to do, and whether it agrees to switch chains. */
const walletLog = { switches: [] as string[], refuseSwitch: false, nodeDown: false };

beforeAll(async () => {
  chain = await startClaimsChain();
  participant = await chain.funded();
  stack = await startStack(
    {
      LOG_LEVEL: "warn",
      PORTAL_SIGNING_KEYS: generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      ...chain.adminEnv,
      CLAIMS_VOUCHER_SIGNER_KEY: chain.voucherSignerKey,
    },
    { portal: true },
  );
  campaign = await setUpCampaign(stack);
  browser = await openBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.drop();
  await chain?.node.stop();
});

/**
 * The participant's wallet beyond signing (window.ethereum starts on chain 1, where the page signs in): switches chains
 * when asked, and sends calls and transactions to the hardhat node.
 */
async function forward(method: string, params: unknown[]): Promise<unknown> {
  if (method === "wallet_switchEthereumChain") {
    const { chainId } = params[0] as { chainId: string };
    walletLog.switches.push(chainId);
    if (walletLog.refuseSwitch) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
    return null;
  }
  if (method === "eth_sendTransaction") {
    const { to, data } = params[0] as { to: string; data: string };
    return (await participant.sendTransaction({ to, data })).hash;
  }
  if (method === "eth_call" && walletLog.nodeDown) throw new Error("could not reach the node");
  if (method === "eth_call" || method === "eth_getTransactionReceipt") return chain.node.provider.send(method, params);
  throw new Error(`unsupported method ${method}`);
}

const balance = async () => (await chain.token.getFunction("balanceOf")(participant.address)) as bigint;

describe("the participant page's token claims", () => {
  it("claims a published epoch and redeems a burn voucher through the wallet, after it agrees to switch to the claim chain", async () => {
    const { auth, base } = campaign.admin;
    const rewards = [
      { name: "5 RWD", kind: "token-claim", currency: "xp", price: "10", token_amount: (5n * E18).toString() },
      { name: "2 RWD now", kind: "token-claim", claim_method: "burn-voucher", currency: "xp", price: "5", token_amount: (2n * E18).toString() },
    ];
    for (const reward of rewards) expect((await call("POST", `${base}/rewards`, reward, auth)).status).toBe(201);
    // 2 xp per unit: 100 xp to spend.
    expect((await campaign.earn(participant.address, "EVM_ADDRESS", "50")).status).toBe(200);

    // The page learns where claims go from web-config.json.
    const config = await call("GET", `${stack.portal?.url}/web-config.json`);
    expect(config.body.claims).toEqual({ contract: chain.adminEnv.CLAIMS_CONTRACT, chain_id: Number(chain.node.chainId) });

    const { page } = browser;
    await injectWallet(page, [participant], { forward });
    await page.goto(`${stack.portal?.url}/?campaign=${campaign.campaignId}`);
    await page.getByRole("button", { name: "Sign in with your wallet" }).click();
    await waitForScores(page, "Experience: 100");
    // Nothing to claim yet: the section stays hidden.
    expect(await page.locator("#claims-section").isHidden()).toBe(true);
    await page.locator("#rewards li", { hasText: "5 RWD —" }).getByRole("button", { name: "Redeem" }).click();
    await page.getByText("Redeemed 5 RWD: claimable.").waitFor();
    await page.locator("#rewards li", { hasText: "2 RWD now" }).getByRole("button", { name: "Redeem" }).click();
    await page.getByText(/^Redeemed 2 RWD now: delivered\. Your burn voucher expires /).waitFor();
    // The page renders again after saying so; then the wallet is on chain 1, so the page cannot read the token: the
    // voucher's amount is in base units.
    await page.locator("#claims li").first().waitFor();
    const account = participant.address.toLowerCase();
    expect(await page.locator("#claims li").allTextContents()).toEqual([
      `2 RWD now: 2000000000000000000 base units of the claim token to ${account} Redeem on chain`,
    ]);

    // The operator closes the epoch; admin-api publishes its root on chain.
    const published = await call("POST", `${base}/claim-epochs/close`, undefined, auth);
    expect([published.status, published.body.status]).toEqual([200, "published"]);
    const epoch = published.body.epoch as string;
    await page.getByRole("button", { name: "Save" }).click();
    const epochItem = page.locator("#claims li", { hasText: `Epoch ${epoch}:` });
    await epochItem.getByRole("button", { name: "Claim" }).waitFor();

    // A wallet that will not switch: nothing is sent, and the page says what to do.
    const start = await balance();
    walletLog.refuseSwitch = true;
    await epochItem.getByRole("button", { name: "Claim" }).click();
    await page.getByText("switch your wallet to chain 31337, where the claim contract is (User rejected the request.)").waitFor();
    expect(await balance()).toBe(start);

    walletLog.refuseSwitch = false;
    await epochItem.getByRole("button", { name: "Claim" }).click();
    await page.getByText(new RegExp(`^Claimed epoch ${epoch} in transaction 0x[0-9a-f]{64}\\.$`)).waitFor({ timeout: 20_000 });
    expect(walletLog.switches).toEqual([`0x${chain.node.chainId.toString(16)}`, `0x${chain.node.chainId.toString(16)}`]);
    expect(await balance()).toBe(start + 5n * E18);
    expect((await (chain.claims as Contract).getFunction("claimed")(BigInt(epoch), participant.address)) as boolean).toBe(true);
    // On the claim chain the page reads the token's symbol and decimals and what the contract already paid.
    expect(await page.locator("#claims li").allTextContents()).toEqual([
      `Epoch ${epoch}: 5 RWD to ${account} (claimed)`,
      `2 RWD now: 2 RWD to ${account} Redeem on chain`,
    ]);

    await page.getByRole("button", { name: "Redeem on chain" }).click();
    await page.getByText(/^Redeemed 2 RWD now on chain in transaction 0x[0-9a-f]{64}\.$/).waitFor({ timeout: 20_000 });
    expect(await balance()).toBe(start + 7n * E18);
    expect(await page.locator("#claims li").allTextContents()).toEqual([
      `Epoch ${epoch}: 5 RWD to ${account} (claimed)`,
      `2 RWD now: 2 RWD to ${account} (redeemed on chain)`,
    ]);

    // A voucher past its expiry (CLAIMS_VOUCHER_TTL_S, 7 days by default) is shown as expired, without a button.
    await page.locator("#rewards li", { hasText: "2 RWD now" }).getByRole("button", { name: "Redeem" }).click();
    await page.getByText(/^Redeemed 2 RWD now: delivered\. /).waitFor();
    // Redemptions come newest first, their vouchers too.
    const listed = (state: string) => [
      `Epoch ${epoch}: 5 RWD to ${account} (claimed)`,
      `2 RWD now: 2 RWD to ${account} ${state}`,
      `2 RWD now: 2 RWD to ${account} (redeemed on chain)`,
    ];
    await waitUntil(async () => (await page.locator("#claims li").count()) === 3, 10_000, "the second voucher");
    expect(await page.locator("#claims li").allTextContents()).toEqual(listed("Redeem on chain"));
    await page.clock.setFixedTime(Date.now() + 8 * 86_400_000);
    await page.getByRole("button", { name: "Save" }).click();
    await waitUntil(
      async () => (await page.locator("#claims li").nth(1).textContent())?.endsWith("(expired)") === true,
      10_000,
      "the voucher shown as expired",
    );
    expect(await page.locator("#claims li").allTextContents()).toEqual(listed("(expired)"));

    // When the wallet's node does not answer, the claims are listed without what the chain says, and the rest renders.
    // The view is aria-busy while it is drawn: the step starts once the renders before it have ended.
    const drawn = () => page.locator("#signed-in:not([aria-busy])").waitFor({ timeout: 10_000 });
    await drawn();
    walletLog.nodeDown = true;
    await page.evaluate('document.getElementById("scores").textContent = ""');
    await page.getByRole("button", { name: "Save" }).click();
    const withoutChain = `Epoch ${epoch}: 5000000000000000000 base units of the claim token to ${account} Claim`;
    await waitUntil(async () => (await page.locator("#claims li").first().textContent()) === withoutChain, 10_000, "the claims without the chain");
    await drawn();
    // The scores are drawn too (what is left to spend follows the redemptions as read-api's cache does).
    expect(await page.locator("#scores").textContent()).toMatch(/^Experience: 100 \(\d+ left to spend\)$/);
    expect(await page.locator("#status").textContent()).toBe("");
    expect(await balance()).toBe(start + 7n * E18);
  });
});

// An injected EIP-1193 wallet (window.ethereum) for browser tests of the participant page, signing with test keys in the test process.
import { getBytes, toUtf8String } from "ethers";
import type { Page } from "playwright-core";
import type { MessageSigner } from "./wallet-sign-in";

/** What the injected wallet does beyond telling its accounts and chain and signing messages. */
export interface InjectedWalletOptions {
  /**
   * Answers, in the test process, any other method (a chain switch, a transaction, a call); without it such a method is
   * refused with EIP-1193's 4200. A wallet_switchEthereumChain it answers without throwing moves the wallet to that chain.
   */
  forward?: (method: string, params: unknown[]) => Promise<unknown>;
}

/**
 * Injects window.ethereum into `page` before its scripts run: it answers `accounts`' addresses in lowercase (as MetaMask
 * does, while a sign-in message needs their EIP-55 form), starts on chain 1, and signs personal_sign by the named account's key.
 */
export async function injectWallet(page: Page, accounts: readonly MessageSigner[], options: InjectedWalletOptions = {}): Promise<void> {
  const { forward } = options;
  await page.exposeFunction("__testWallet", async (method: string, params: unknown[]) => {
    if (method !== "personal_sign") return forward?.(method, params);
    const signer = accounts.find((a) => a.address.toLowerCase() === String(params[1]).toLowerCase());
    if (!signer) throw new Error(`unknown account ${String(params[1])}`);
    return signer.signMessage(toUtf8String(getBytes(params[0] as string)));
  });
  const wallet = { addresses: accounts.map((a) => a.address.toLowerCase()), forwards: forward !== undefined };
  await page.addInitScript(({ addresses, forwards }: typeof wallet) => {
    let chainId = "0x1";
    const scope = globalThis as unknown as { __testWallet(method: string, params: unknown[]): Promise<unknown>; ethereum: unknown };
    scope.ethereum = {
      async request({ method, params = [] }: { method: string; params?: unknown[] }) {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return addresses;
        if (method === "eth_chainId") return chainId;
        if (method !== "personal_sign" && !forwards) throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
        const answer = await scope.__testWallet(method, params);
        if (method === "wallet_switchEthereumChain") chainId = (params[0] as { chainId: string }).chainId;
        return answer;
      },
    };
  }, wallet);
}

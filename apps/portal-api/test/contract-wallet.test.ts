// Contract wallets (EIP-1271) sign in when PORTAL_EVM_RPC_URL names their chain: the wallet contract itself, deployed on a local hardhat chain, is asked.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { type MessageSigner, waitUntil } from "@pointwise/testkit";
import { Wallet } from "ethers";
import { createEvmChain } from "../src/wallet-evm";
import { type LocalChain, startChain } from "./chain";
import { type Harness, signIn, startPortal } from "./harness";

let chain: LocalChain;
let h: Harness;
let offline: Harness;
beforeAll(async () => {
  chain = await startChain();
  h = await startPortal({ PORTAL_EVM_CHAIN_IDS: "1,31337" }, createEvmChain(chain.url));
  offline = await startPortal({ PORTAL_EVM_CHAIN_IDS: "1,31337" });
}, 90_000);
afterAll(async () => {
  await h?.close();
  await offline?.close();
  await chain?.stop();
});

/** Signs in as the contract wallet at `walletAddress`, the message signed by `signer`'s key. */
async function contractSignIn(target: Harness, walletAddress: string, signer: MessageSigner, chainId = 31337) {
  return target.call("POST", "/auth/wallet", await signIn(target, signer, { address: walletAddress, chainId }));
}

describe("EIP-1271 contract wallets", () => {
  it("signs in a contract wallet whose isValidSignature accepts its owner's signature, as the contract's address", async () => {
    const owner = Wallet.createRandom();
    const address = await chain.deployWallet(owner.address);
    const res = await contractSignIn(h, address, owner);
    expect(res.status).toBe(200);
    const { rows } = await h.deps.db.query<{ account_id: string }>("SELECT account_id FROM identity WHERE user_id = $1", [res.body.user_id]);
    expect(rows.map((r) => r.account_id)).toEqual([address.toLowerCase()]);
  });

  it("refuses a signature the contract rejects, a contract of another chain id, and any contract wallet without an RPC", async () => {
    const owner = Wallet.createRandom();
    const address = await chain.deployWallet(owner.address);
    const stranger = await contractSignIn(h, address, Wallet.createRandom());
    expect([stranger.status, stranger.body.error.code]).toEqual([401, "invalid-signature"]);
    expect((await contractSignIn(h, address, owner, 1)).body.error.code).toBe("invalid-signature");
    expect((await contractSignIn(offline, address, owner)).body.error.code).toBe("invalid-signature");
  });

  it("answers 503 chain-unavailable when the RPC refuses, and logs no part of its URL's key", async () => {
    // A provider that refuses the key in its URL's path (HTTP 401); `chainIdAnswered`: it still answers eth_chainId.
    for (const chainIdAnswered of [false, true]) {
      let unanswered = 0;
      const server = createServer((req, res) => {
        unanswered += 1;
        res.on("close", () => {
          unanswered -= 1;
        });
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
          if (chainIdAnswered && (JSON.parse(body) as { method: string }).method === "eth_chainId") {
            res.setHeader("content-type", "application/json");
            res.end(JSON.stringify({ jsonrpc: "2.0", id: (JSON.parse(body) as { id: number }).id, result: "0x7a69" }));
          } else res.writeHead(401).end("invalid API key");
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const evm = createEvmChain(`http://127.0.0.1:${port}/v2/SECRETKEY123`);
      const refusing = await startPortal({ PORTAL_EVM_CHAIN_IDS: "1,31337" }, evm);
      const printed = jest.spyOn(console, "log");
      try {
        const owner = Wallet.createRandom();
        const res = await contractSignIn(refusing, await chain.deployWallet(owner.address), owner);
        expect([chainIdAnswered, res.status, res.body.error.code]).toEqual([chainIdAnswered, 503, "chain-unavailable"]);
        expect(refusing.logs.join("")).toContain("chain-unavailable");
        expect(refusing.logs.join("")).toContain("401");
        expect(refusing.logs.join("")).not.toContain("SECRETKEY123");
        // Nothing outside the JSON log. An ethers provider left to detect its network prints its retry line as soon as
        // the endpoint refuses it (before the refusal reaches its caller), then again every second: once the endpoint
        // has answered every request it got, such a provider has printed.
        await waitUntil(() => unanswered === 0, 10_000, "the endpoint to answer every request it got");
        expect(printed).not.toHaveBeenCalled();
      } finally {
        printed.mockRestore();
        evm.destroy();
        await refusing.close();
        server.close();
      }
    }
  });

  it("sends the credentials of an RPC URL (https://user:secret@host/) as HTTP Basic when it asks the chain id", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      req.on("end", () => {
        if (req.headers.authorization !== `Basic ${Buffer.from("user:s3cret/x").toString("base64")}`) return void res.writeHead(401).end();
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x7a69" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const evm = createEvmChain(`http://user:s3cret%2Fx@127.0.0.1:${(server.address() as AddressInfo).port}/`);
    try {
      expect((await evm.connect()).chainId).toBe(31337);
      expect(seen).toHaveLength(1);
    } finally {
      evm.destroy();
      server.close();
    }
  });

  it("refuses an address without code (no contract) as invalid-signature, not as an error of the chain", async () => {
    const res = await contractSignIn(h, Wallet.createRandom().address, Wallet.createRandom());
    expect([res.status, res.body.error.code]).toEqual([401, "invalid-signature"]);
  });
});

// The hardhat node helper: chain id, funded well-known accounts, JSON-RPC, and a stop that frees the port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { parseEther } from "ethers";
import { localChainProvider, startHardhatNode } from "./hardhat";

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

it("runs a chain with the chosen id and funded accounts, and stops cleanly", async () => {
  const node = await startHardhatNode({ chainId: 4242, accounts: 3, balanceWei: parseEther("5") });
  const port = Number(new URL(node.url).port);
  try {
    expect(node.chainId).toBe(4242n);
    expect(await node.rpc("eth_chainId")).toBe("0x1092");
    // hardhat's documented first accounts of "test test ... junk".
    expect(node.accounts.map((a) => a.address)).toEqual([
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    ]);
    for (const { address } of node.accounts) expect(await node.provider.getBalance(address)).toBe(parseEther("5"));
    const receipt = await (await node.wallet(1).sendTransaction({ to: node.accounts[2]?.address, value: 7n })).wait();
    expect(receipt?.status).toBe(1);
    expect(await node.provider.getBalance(node.accounts[2]?.address as string)).toBe(parseEther("5") + 7n);
    expect(() => node.wallet(3)).toThrow("account 3 does not exist");
  } finally {
    await node.stop();
  }
  expect(await portOpen(port)).toBe(false);
});

describe("localChainProvider", () => {
  it("opens a connection per request, so no call picks an idle connection the node is closing", async () => {
    let connections = 0;
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        const { id } = JSON.parse(body) as { id: number };
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x10" }));
      });
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const provider = localChainProvider(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 31337);
    try {
      expect(await provider.getBlockNumber()).toBe(16);
      expect(await provider.getBlockNumber()).toBe(16);
      expect(await provider.getBlockNumber()).toBe(16);
      expect(connections).toBe(3);
    } finally {
      provider.destroy();
      server.close();
    }
  });
});

// Start-up checks against the chain: right chain id, contracts deployed, and where indexing begins.
import { contractNotFound, fromBlockNotFound } from "../symptoms";
import { type ChainReader, RpcResponseError } from "./reader";

/** Checks that the endpoint serves the configured chain and that every contract has code; else Contract Not Found. */
export async function checkContracts(reader: Pick<ChainReader, "code" | "chainId">, chainId: number, contracts: readonly string[]): Promise<void> {
  // Asked together, since start-up waits for every answer and each is a round trip to a hosted endpoint; read in the
  // same order as before, so the chain id is judged first and the first missing contract is the one named.
  const codes = contracts.map((address) => reader.code(address));
  // A failure surfaces where its answer is awaited below; one never awaited (an earlier check failed) stays quiet.
  for (const code of codes) code.catch(() => undefined);
  const served = await reader.chainId();
  if (served !== chainId) throw contractNotFound({ details: { reason: `RPC serves chain ${served}, config says ${chainId}`, chainId, served } });
  for (const [i, address] of contracts.entries()) {
    const code = await codes[i];
    if (code === "0x" || code === "") throw contractNotFound({ details: { reason: `no contract at ${address} on chain ${chainId}`, address, chainId } });
  }
}

/**
 * Finds the first block at which every contract exists (the latest deployment among them) by binary search over
 * historical eth_getCode. A node that cannot answer state queries for old blocks gives fromBlock Not Found.
 */
export async function findFromBlock(reader: Pick<ChainReader, "code">, contracts: readonly string[], head: number): Promise<number> {
  let start = 0;
  for (const address of contracts) {
    let lo = 0;
    let hi = head;
    try {
      while (lo < hi) {
        const mid = lo + Math.floor((hi - lo) / 2);
        const code = await reader.code(address, mid);
        if (code !== "0x" && code !== "") hi = mid;
        else lo = mid + 1;
      }
    } catch (err) {
      if (err instanceof RpcResponseError)
        throw fromBlockNotFound({ cause: err, details: { reason: "the RPC cannot look up historical contract code; set range.fromBlock", address } });
      throw err;
    }
    start = Math.max(start, lo);
  }
  return start;
}

/** Fails with fromBlock Not Found when the configured start block is beyond the chain's head. */
export function checkFromBlock(fromBlock: number, head: number): void {
  if (fromBlock > head) throw fromBlockNotFound({ details: { reason: `range.fromBlock ${fromBlock} is beyond the chain head ${head}`, fromBlock, head } });
}

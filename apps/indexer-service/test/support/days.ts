// Test support for the indexer: after the pool scenario, swaps on chosen UTC days and hours, spread over many days.
import { Contract, type JsonRpcSigner } from "ethers";
import type { LocalChain } from "./chain";
import { compileContracts } from "./compile";
import { amountOut, type ScenarioResult } from "./scenario";

const DAY_MS = 86_400_000;

/** How many swaps each of the scenario's users makes on one day (days counted from the chain's start date). */
export interface TradingDay {
  /** Days after the UTC midnight of the chain's first block. */
  day: number;
  swaps: { a?: number; b?: number; c?: number };
}

/**
 * Sends the swaps of `days` through the scenario's router, each block at a chosen time: a user's k-th swap of a day
 * at 09:00 UTC + 40 minutes per earlier swap of that day (users take turns), so the chain's own block times place
 * every swap on the day and weekday the test intends. Directions alternate so the pool stays balanced. Returns the
 * last block. The test reads what happened from the chain's logs, not from here.
 */
export async function tradeOverDays(chain: LocalChain, scenario: ScenarioResult, days: readonly TradingDay[]): Promise<number> {
  const compiled = await compileContracts();
  const abiOf = (name: string) => {
    const c = compiled[name];
    if (c === undefined) throw new Error(`contract ${name} not compiled`);
    return c.abi as never;
  };
  const signers = (await chain.provider.listAccounts()) as JsonRpcSigner[];
  const byUser = new Map<string, JsonRpcSigner>();
  for (const s of signers) byUser.set((await s.getAddress()).toLowerCase(), s);
  const pair = new Contract(scenario.pair, abiOf("TestPair"), chain.provider);
  const genesis = await chain.provider.getBlock(0);
  const startDay = Math.floor(((genesis?.timestamp ?? 0) * 1000) / DAY_MS) * DAY_MS;
  let zeroForOne = true;
  for (const { day, swaps } of days) {
    const turns: string[] = [];
    for (let round = 0; round < 10; round++) {
      for (const who of ["a", "b", "c"] as const) if ((swaps[who] ?? 0) > round) turns.push(scenario.users[who]);
    }
    for (const [k, user] of turns.entries()) {
      const signer = byUser.get(user);
      if (signer === undefined) throw new Error(`no signer for ${user}`);
      const at = startDay + day * DAY_MS + 9 * 3_600_000 + k * 40 * 60_000;
      await chain.rpc("evm_setNextBlockTimestamp", [at / 1000]);
      const [r0, r1] = (await pair.getFunction("getReserves")()) as [bigint, bigint];
      const amountIn = zeroForOne ? 5n * 10n ** 6n : 2n * 10n ** 15n;
      const out = zeroForOne ? amountOut(amountIn, r0, r1) : amountOut(amountIn, r1, r0);
      const router = new Contract(scenario.router, abiOf("TestRouter"), signer);
      const tx = await router.getFunction("swap")(
        scenario.pair,
        zeroForOne ? scenario.token0 : scenario.token1,
        amountIn,
        zeroForOne ? 0n : out,
        zeroForOne ? out : 0n,
        user,
      );
      await tx.wait();
      zeroForOne = !zeroForOne;
    }
  }
  await chain.rpc("evm_mine");
  return chain.provider.getBlockNumber();
}

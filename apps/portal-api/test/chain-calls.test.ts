// The participant page's contract calls (web/chain-calls.js, run here as the browser runs it) against ethers' ABI coder and the contract's compiled ABI.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { CLAIMS_ABI } from "@pointwise/claims";
import { AbiCoder, hexlify, Interface, randomBytes, Wallet } from "ethers";

interface ChainCalls {
  claimCall(epoch: string, account: string, amount: string, proof: string[]): string;
  claimedCall(epoch: string, account: string): string;
  redeemCall(voucher: { user: string; amount: string; nonce: string; expiry: string; signature: string }): string;
  voucherUsedCall(voucher: { user: string; nonce: string }): string;
  uintAnswer(answer: string): bigint;
  boolAnswer(answer: string): boolean;
  addressAnswer(answer: string): string;
  stringAnswer(answer: string): string;
  formatUnits(amount: string, decimals: number): string;
  SELECTORS: Record<string, string>;
}

const sandbox: { PointwiseChain?: ChainCalls; TextDecoder: typeof TextDecoder } = { TextDecoder };
runInNewContext(readFileSync(join(__dirname, "../web/chain-calls.js"), "utf8"), sandbox);
const calls = sandbox.PointwiseChain as ChainCalls;
const claims = new Interface(CLAIMS_ABI as never);
const erc20 = new Interface(["function decimals() view returns (uint8)", "function symbol() view returns (string)"]);
const coder = AbiCoder.defaultAbiCoder();
const account = Wallet.createRandom().address;

describe("the participant page's contract calls", () => {
  it("has the selector of each function it calls", () => {
    expect(calls.SELECTORS).toEqual({
      claim: claims.getFunction("claim")?.selector,
      claimed: claims.getFunction("claimed")?.selector,
      redeem: claims.getFunction("redeem")?.selector,
      voucherUsed: claims.getFunction("voucherUsed")?.selector,
      token: claims.getFunction("token")?.selector,
      decimals: erc20.getFunction("decimals")?.selector,
      symbol: erc20.getFunction("symbol")?.selector,
    });
  });

  it.each([0, 1, 5])("writes claim's call data as the ABI coder does, with a proof of %i hashes", (n) => {
    const proof = Array.from({ length: n }, () => hexlify(randomBytes(32)));
    const amount = (123456789n * 10n ** 18n + 1n).toString();
    expect(calls.claimCall("7", account, amount, proof)).toBe(claims.encodeFunctionData("claim", [7n, account, BigInt(amount), proof]));
    expect(calls.claimedCall("7", account)).toBe(claims.encodeFunctionData("claimed", [7n, account]));
  });

  it.each([65, 64, 1])("writes redeem's call data as the ABI coder does, with a signature of %i bytes", (length) => {
    const voucher = {
      user: account.toLowerCase(),
      amount: "2000000000000000000",
      nonce: (2n ** 127n + 3n).toString(),
      expiry: "1893456000",
      signature: hexlify(randomBytes(length)),
    };
    expect(calls.redeemCall(voucher)).toBe(
      claims.encodeFunctionData("redeem", [voucher.user, BigInt(voucher.amount), BigInt(voucher.nonce), BigInt(voucher.expiry), voucher.signature]),
    );
    expect(calls.voucherUsedCall(voucher)).toBe(claims.encodeFunctionData("voucherUsed", [voucher.user, BigInt(voucher.nonce)]));
  });

  it("reads the answers the contracts give", () => {
    expect(calls.uintAnswer(coder.encode(["uint8"], [18]))).toBe(18n);
    expect(calls.boolAnswer(coder.encode(["bool"], [true]))).toBe(true);
    expect(calls.boolAnswer(coder.encode(["bool"], [false]))).toBe(false);
    expect(calls.addressAnswer(coder.encode(["address"], [account]))).toBe(account.toLowerCase());
    expect(calls.stringAnswer(coder.encode(["string"], ["Reward Token ✓"]))).toBe("Reward Token ✓");
  });

  it("refuses values it cannot write and an empty answer (a contract the wallet's chain does not have)", () => {
    expect(() => calls.claimCall("-1", account, "1", [])).toThrow("-1 is not a uint256");
    expect(() => calls.claimCall((2n ** 256n).toString(), account, "1", [])).toThrow("is not a uint256");
    expect(() => calls.claimCall("1", "0x12", "1", [])).toThrow("0x12 is not an address");
    expect(() => calls.claimCall("1", account, "1", ["0x12"])).toThrow("0x12 is not a bytes32");
    expect(() => calls.boolAnswer("0x")).toThrow("the chain gave no answer (is the wallet on the claim contract's chain?)");
  });

  it("writes amounts with the token's decimals, without trailing zeros", () => {
    expect(calls.formatUnits("5000000000000000000", 18)).toBe("5");
    expect(calls.formatUnits("250000000000000000", 18)).toBe("0.25");
    expect(calls.formatUnits("1", 18)).toBe("0.000000000000000001");
    expect(calls.formatUnits("0", 6)).toBe("0");
    expect(calls.formatUnits("1234567", 0)).toBe("1234567");
  });
});

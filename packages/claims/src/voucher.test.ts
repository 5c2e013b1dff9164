// Burn vouchers: the EIP-712 digest written out with ethers' keccak and ABI coder, signature recovery, and every bad input.
import { ValidationError } from "@pointwise/errors";
import { recoverAddress, Wallet } from "ethers";
import { voucherDigest } from "../test/written-out";
import { type BurnVoucher, burnVoucherDigest, type ClaimsDomain, recoverBurnVoucherSigner, signBurnVoucher } from "./voucher";

const domain: ClaimsDomain = { chainId: 8453n, verifyingContract: "0x5fbdb2315678afecb367f032d93f642f64180aa3" };
const voucher: BurnVoucher = { user: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", amount: 1234n * 10n ** 18n, nonce: 7n, expiry: 1_900_000_000n };

async function failure(fn: () => unknown): Promise<ValidationError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error("expected a ValidationError");
}

describe("burnVoucherDigest", () => {
  it("equals the EIP-712 digest written out field by field", () => {
    expect(burnVoucherDigest(domain, voucher)).toBe(voucherDigest(domain, voucher));
  });

  it("changes with every field of the voucher and the domain", () => {
    const base = burnVoucherDigest(domain, voucher);
    const variants = [
      burnVoucherDigest(domain, { ...voucher, user: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" }),
      burnVoucherDigest(domain, { ...voucher, amount: voucher.amount + 1n }),
      burnVoucherDigest(domain, { ...voucher, nonce: voucher.nonce + 1n }),
      burnVoucherDigest(domain, { ...voucher, expiry: voucher.expiry + 1n }),
      burnVoucherDigest({ ...domain, chainId: 1n }, voucher),
      burnVoucherDigest({ ...domain, verifyingContract: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512" }, voucher),
    ];
    expect(new Set([base, ...variants]).size).toBe(7);
  });
});

describe("signBurnVoucher", () => {
  it("signs the digest with the given key (65 bytes, recoverable)", async () => {
    const key = Wallet.createRandom();
    const signature = await signBurnVoucher(key.privateKey, domain, voucher);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(recoverAddress(voucherDigest(domain, voucher), signature)).toBe(key.address);
    expect(recoverBurnVoucherSigner(domain, voucher, signature)).toBe(key.address);
    expect(recoverBurnVoucherSigner(domain, { ...voucher, amount: 1n }, signature)).not.toBe(key.address);
  });

  it.each([
    ["a malformed user", { ...voucher, user: "0xabc" }, "voucher.user", "EVM address"],
    ["a user without 0x", { ...voucher, user: "70997970c51812dc3a010c7d01b50e0d17dc79c8" }, "voucher.user", "EVM address"],
    ["a zero amount", { ...voucher, amount: 0n }, "voucher.amount", "at least 1"],
    ["a number amount", { ...voucher, amount: 5 }, "voucher.amount", "must be a bigint"],
    ["an amount above uint256", { ...voucher, amount: 2n ** 256n }, "voucher.amount", "uint256"],
    ["a negative nonce", { ...voucher, nonce: -1n }, "voucher.nonce", "at least 0"],
    ["a missing expiry", { ...voucher, expiry: undefined }, "voucher.expiry", "must be a bigint"],
    ["an expiry above uint256", { ...voucher, expiry: 2n ** 256n }, "voucher.expiry", "uint256"],
  ])("rejects %s with invalid-voucher naming the field", async (_name, bad, field, text) => {
    const key = Wallet.createRandom().privateKey;
    for (const attempt of [() => signBurnVoucher(key, domain, bad as BurnVoucher), () => burnVoucherDigest(domain, bad as BurnVoucher)]) {
      const err = await failure(attempt);
      expect(err).toMatchObject({ code: "invalid-voucher", field });
      expect(err.message).toContain(field);
      expect(err.message).toContain(text);
    }
  });

  it.each([
    ["a zero chain id", { ...domain, chainId: 0n }, "domain.chainId"],
    ["a number chain id", { ...domain, chainId: 1 }, "domain.chainId"],
    ["a malformed contract", { ...domain, verifyingContract: "0x12" }, "domain.verifyingContract"],
  ])("rejects %s with invalid-claims-domain", async (_name, bad, field) => {
    const err = await failure(() => burnVoucherDigest(bad as ClaimsDomain, voucher));
    expect(err).toMatchObject({ code: "invalid-claims-domain", field });
    expect(err.message).toContain(field);
  });

  it("rejects a malformed private key with invalid-signer-key", async () => {
    for (const key of ["", "0x1234", "not a key"]) {
      expect(await failure(() => signBurnVoucher(key, domain, voucher))).toMatchObject({ code: "invalid-signer-key", field: "privateKey" });
    }
  });

  it("rejects a malformed signature with invalid-voucher", () => {
    expect(() => recoverBurnVoucherSigner(domain, voucher, "0x1234")).toThrow(expect.objectContaining({ code: "invalid-voucher", field: "signature" }));
  });
});

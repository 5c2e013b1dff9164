// Burn vouchers: EIP-712 typed data the service signs and PointwiseClaims.redeem pays out once.
import { ValidationError } from "@pointwise/errors";
import { getAddress, isAddress, type TypedDataDomain, TypedDataEncoder, verifyTypedData, Wallet } from "ethers";
import { MAX_UINT256 } from "./tree";

/** A burn-redemption voucher: EIP-712 typed data the service signs and the contract redeems once. */
export interface BurnVoucher {
  user: string;
  amount: bigint;
  nonce: bigint;
  /** Unix seconds; the voucher redeems while the block timestamp is at most this. */
  expiry: bigint;
}

/** EIP-712 domain: name "Pointwise Claims", version "1", chainId, verifyingContract (the claims contract). */
export interface ClaimsDomain {
  chainId: bigint;
  verifyingContract: string;
}

/** The EIP-712 domain name and version the contract is deployed with. */
export const CLAIMS_EIP712_NAME = "Pointwise Claims";
/** The EIP-712 domain version the contract is deployed with. */
export const CLAIMS_EIP712_VERSION = "1";

/** The EIP-712 types of a burn voucher: BurnVoucher(address user,uint256 amount,uint256 nonce,uint256 expiry). */
export const BURN_VOUCHER_TYPES = {
  BurnVoucher: [
    { name: "user", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "expiry", type: "uint256" },
  ],
} as const;

/** Signs a voucher with the voucher signer's private key; returns the 65-byte signature as 0x hex. */
export async function signBurnVoucher(privateKey: string, domain: ClaimsDomain, voucher: BurnVoucher): Promise<string> {
  let wallet: Wallet;
  try {
    wallet = new Wallet(privateKey);
  } catch (cause) {
    throw new ValidationError("privateKey must be a 32-byte hex private key", { code: "invalid-signer-key", field: "privateKey", cause });
  }
  return wallet.signTypedData(typedDomain(domain), types(), typedVoucher(voucher));
}

/** The EIP-712 digest of a voucher (what the contract's voucherDigest returns and the signer signs). */
export function burnVoucherDigest(domain: ClaimsDomain, voucher: BurnVoucher): string {
  return TypedDataEncoder.hash(typedDomain(domain), types(), typedVoucher(voucher));
}

/** The address that signed a voucher (checksummed); compare it with the contract's voucherSigner. */
export function recoverBurnVoucherSigner(domain: ClaimsDomain, voucher: BurnVoucher, signature: string): string {
  try {
    return verifyTypedData(typedDomain(domain), types(), typedVoucher(voucher), signature);
  } catch (cause) {
    throw new ValidationError("signature must be a 65-byte ECDSA signature", { code: "invalid-voucher", field: "signature", cause });
  }
}

// ethers wants a mutable copy of the type list.
function types(): Record<string, { name: string; type: string }[]> {
  return { BurnVoucher: BURN_VOUCHER_TYPES.BurnVoucher.map((f) => ({ ...f })) };
}

function typedDomain(domain: ClaimsDomain): TypedDataDomain {
  if (typeof domain !== "object" || domain === null) throw new ValidationError("domain must be an object", { code: "invalid-claims-domain", field: "domain" });
  if (typeof domain.chainId !== "bigint" || domain.chainId <= 0n) {
    throw new ValidationError("domain.chainId must be a positive bigint", { code: "invalid-claims-domain", field: "domain.chainId" });
  }
  if (typeof domain.verifyingContract !== "string" || !domain.verifyingContract.startsWith("0x") || !isAddress(domain.verifyingContract)) {
    throw new ValidationError("domain.verifyingContract must be a 0x-prefixed 20-byte EVM address", {
      code: "invalid-claims-domain",
      field: "domain.verifyingContract",
    });
  }
  return { name: CLAIMS_EIP712_NAME, version: CLAIMS_EIP712_VERSION, chainId: domain.chainId, verifyingContract: getAddress(domain.verifyingContract) };
}

function typedVoucher(voucher: BurnVoucher): Record<string, unknown> {
  if (typeof voucher !== "object" || voucher === null) throw new ValidationError("voucher must be an object", { code: "invalid-voucher", field: "voucher" });
  if (typeof voucher.user !== "string" || !voucher.user.startsWith("0x") || !isAddress(voucher.user)) {
    throw new ValidationError("voucher.user must be a 0x-prefixed 20-byte EVM address", { code: "invalid-voucher", field: "voucher.user" });
  }
  uint(voucher.amount, "voucher.amount", 1n);
  uint(voucher.nonce, "voucher.nonce", 0n);
  uint(voucher.expiry, "voucher.expiry", 0n);
  return { user: getAddress(voucher.user), amount: voucher.amount, nonce: voucher.nonce, expiry: voucher.expiry };
}

function uint(value: unknown, field: string, min: bigint): void {
  if (typeof value !== "bigint") throw new ValidationError(`${field} must be a bigint`, { code: "invalid-voucher", field });
  if (value < min) throw new ValidationError(`${field} must be at least ${min}`, { code: "invalid-voucher", field });
  if (value > MAX_UINT256) throw new ValidationError(`${field} must fit in uint256`, { code: "invalid-voucher", field });
}

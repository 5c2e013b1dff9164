// Test support: the hashes PointwiseClaims and EIP-712 prescribe, written out with ethers' keccak and ABI coder (not the package's code).
import { AbiCoder, concat, keccak256, toUtf8Bytes } from "ethers";

const coder = AbiCoder.defaultAbiCoder();

/** Leaf hash: keccak256(bytes.concat(keccak256(abi.encode(account, amount)))). */
export function leafHash(account: string, amount: bigint): string {
  return keccak256(concat([keccak256(coder.encode(["address", "uint256"], [account, amount]))]));
}

/** OpenZeppelin's commutative pair hash: keccak256 of the two hashes in ascending order. */
export function hashPair(a: string, b: string): string {
  return BigInt(a) < BigInt(b) ? keccak256(concat([a, b])) : keccak256(concat([b, a]));
}

/** What MerkleProof.verify does: fold the proof into the leaf with the pair hash and compare with the root. */
export function verifyProof(root: string, account: string, amount: bigint, proof: string[]): boolean {
  return proof.reduce(hashPair, leafHash(account, amount)) === root;
}

/** The EIP-712 digest of BurnVoucher(address user,uint256 amount,uint256 nonce,uint256 expiry) under the "Pointwise Claims" v1 domain. */
export function voucherDigest(
  domain: { chainId: bigint; verifyingContract: string },
  v: { user: string; amount: bigint; nonce: bigint; expiry: bigint },
): string {
  const domainSeparator = keccak256(
    coder.encode(
      ["bytes32", "bytes32", "bytes32", "uint256", "address"],
      [
        keccak256(toUtf8Bytes("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")),
        keccak256(toUtf8Bytes("Pointwise Claims")),
        keccak256(toUtf8Bytes("1")),
        domain.chainId,
        domain.verifyingContract,
      ],
    ),
  );
  const typeHash = keccak256(toUtf8Bytes("BurnVoucher(address user,uint256 amount,uint256 nonce,uint256 expiry)"));
  const structHash = keccak256(coder.encode(["bytes32", "address", "uint256", "uint256", "uint256"], [typeHash, v.user, v.amount, v.nonce, v.expiry]));
  return keccak256(concat(["0x1901", domainSeparator, structHash]));
}

// An epoch's claim tree: (account, amount) leaves in OpenZeppelin's StandardMerkleTree, as PointwiseClaims verifies them.
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { ValidationError } from "@pointwise/errors";
import { isAddress } from "ethers";

/** One leaf of an epoch: an EVM address and a token amount in base units (> 0). */
export interface ClaimLeaf {
  account: string;
  amount: bigint;
}

/** An epoch's Merkle tree (OpenZeppelin StandardMerkleTree, leaf encoding ["address", "uint256"]). */
export interface ClaimTree {
  /** The root to publish: 0x-prefixed bytes32. */
  root: string;
  /** One leaf per account, accounts lowercased, ordered by account. */
  leaves: readonly ClaimLeaf[];
  /** The account's amount and the proof `claim` takes, or undefined when the account has no leaf. */
  proof(account: string): { amount: bigint; proof: string[] } | undefined;
  /** A JSON value to store (jsonb); loadClaimTree reads it back. */
  toJSON(): unknown;
}

/** The Solidity types of a leaf, in order. */
export const CLAIM_LEAF_ENCODING = ["address", "uint256"] as const;

/** The largest uint256, the most base units one claim (or a voucher) can carry on chain: 2^256 - 1. */
export const MAX_UINT256 = (1n << 256n) - 1n;

type Tree = StandardMerkleTree<[string, string]>;

/**
 * Builds an epoch's tree; amounts of the same account (in any letter case) are summed into one leaf.
 * Throws ValidationError "invalid-claim-leaf" naming the field on a bad address, an amount <= 0 or above uint256,
 * and "empty-claim-tree" when there is no leaf.
 */
export function buildClaimTree(leaves: readonly ClaimLeaf[]): ClaimTree {
  if (!Array.isArray(leaves)) throw new ValidationError("leaves must be an array", { code: "invalid-claim-leaf", field: "leaves" });
  const sums = new Map<string, bigint>();
  leaves.forEach((leaf, i) => {
    const account = checkAccount(leaf?.account, `leaves[${i}].account`, "invalid-claim-leaf");
    const amount = checkAmount(leaf?.amount, `leaves[${i}].amount`, "invalid-claim-leaf");
    const sum = (sums.get(account) ?? 0n) + amount;
    if (sum > MAX_UINT256) {
      throw new ValidationError(`leaves[${i}].amount makes the total of ${account} exceed uint256`, {
        code: "invalid-claim-leaf",
        field: `leaves[${i}].amount`,
      });
    }
    sums.set(account, sum);
  });
  if (sums.size === 0) throw new ValidationError("leaves must hold at least one leaf", { code: "empty-claim-tree", field: "leaves" });
  const accounts = [...sums.keys()].sort();
  const tree = StandardMerkleTree.of(
    accounts.map((account) => [account, (sums.get(account) as bigint).toString()] as [string, string]),
    [...CLAIM_LEAF_ENCODING],
  );
  return wrap(tree);
}

/**
 * Reads back a tree stored with toJSON(); checks every hash, the leaf encoding and the leaves.
 * Throws ValidationError "invalid-claim-tree" when the value is not such a tree.
 */
export function loadClaimTree(json: unknown): ClaimTree {
  const fail = (message: string, cause?: unknown): never => {
    throw new ValidationError(`stored claim tree is invalid: ${message}`, { code: "invalid-claim-tree", field: "tree", cause });
  };
  if (typeof json !== "object" || json === null) return fail("expected an object");
  const data = json as { format?: unknown; leafEncoding?: unknown };
  if (data.format !== "standard-v1") return fail(`format must be "standard-v1"`);
  if (JSON.stringify(data.leafEncoding) !== JSON.stringify(CLAIM_LEAF_ENCODING)) return fail(`leafEncoding must be ${JSON.stringify(CLAIM_LEAF_ENCODING)}`);
  let tree: Tree;
  try {
    // load recomputes every leaf hash and inner node, and throws when one differs.
    tree = StandardMerkleTree.load(json as Parameters<typeof StandardMerkleTree.load<[string, string]>>[0]);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err), err);
  }
  const seen = new Set<string>();
  for (const [i, [account, amount]] of tree.entries()) {
    const checked = checkAccount(account, `values[${i}].account`, "invalid-claim-tree");
    if (checked !== account) fail(`values[${i}].account must be lowercase`);
    if (seen.has(checked)) fail(`values[${i}].account ${checked} appears twice`);
    seen.add(checked);
    if (typeof amount !== "string" || !/^[1-9][0-9]*$/.test(amount)) fail(`values[${i}].amount must be a positive integer string`);
    checkAmount(BigInt(amount), `values[${i}].amount`, "invalid-claim-tree");
  }
  return wrap(tree);
}

function wrap(tree: Tree): ClaimTree {
  const index = new Map<string, number>();
  const leaves: ClaimLeaf[] = [];
  for (const [i, [account, amount]] of tree.entries()) {
    index.set(account, i);
    leaves.push({ account, amount: BigInt(amount) });
  }
  leaves.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  Object.freeze(leaves);
  return {
    root: tree.root,
    leaves,
    proof(account) {
      if (typeof account !== "string") return undefined;
      const i = index.get(account.toLowerCase());
      if (i === undefined) return undefined;
      const [, amount] = tree.at(i) as [string, string];
      return { amount: BigInt(amount), proof: tree.getProof(i) };
    },
    toJSON: () => tree.dump(),
  };
}

// All-lowercase or all-uppercase hex carries no checksum to verify; the slower isAddress checks mixed case.
const UNCHECKSUMMED = /^0x([0-9a-f]{40}|[0-9A-F]{40})$/;

function checkAccount(value: unknown, field: string, code: string): string {
  if (typeof value !== "string" || !value.startsWith("0x") || !(UNCHECKSUMMED.test(value) || isAddress(value))) {
    throw new ValidationError(`${field} must be a 0x-prefixed 20-byte EVM address`, { code, field });
  }
  return value.toLowerCase();
}

function checkAmount(value: unknown, field: string, code: string): bigint {
  if (typeof value !== "bigint") throw new ValidationError(`${field} must be a bigint`, { code, field });
  if (value <= 0n) throw new ValidationError(`${field} must be greater than 0`, { code, field });
  if (value > MAX_UINT256) throw new ValidationError(`${field} must fit in uint256`, { code, field });
  return value;
}

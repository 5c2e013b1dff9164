// Epoch claim trees: input validation, summing per account, storage round trip, and proofs checked with ethers' own hashing.
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { ValidationError } from "@pointwise/errors";
import { AbiCoder, concat, getAddress, keccak256 } from "ethers";
import fc from "fast-check";
import { buildClaimTree, type ClaimLeaf, loadClaimTree } from "./tree";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";
const C = "0x3333333333333333333333333333333333333333";
const MAX_UINT256 = 2n ** 256n - 1n;
const coder = AbiCoder.defaultAbiCoder();

/** Leaf hash written out: keccak256(bytes.concat(keccak256(abi.encode(account, amount)))). */
function leafHash(account: string, amount: bigint): string {
  return keccak256(concat([keccak256(coder.encode(["address", "uint256"], [account, amount]))]));
}

/** What MerkleProof.verify does: fold the proof with the commutative pair hash and compare with the root. */
function verify(root: string, account: string, amount: bigint, proof: string[]): boolean {
  let node = leafHash(account, amount);
  for (const sibling of proof) node = BigInt(node) < BigInt(sibling) ? keccak256(concat([node, sibling])) : keccak256(concat([sibling, node]));
  return node === root;
}

function codeOf(fn: () => unknown): { code: string; field: string | undefined; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    return { code: e.code, field: e.field, message: e.message };
  }
  throw new Error("expected a ValidationError");
}

describe("buildClaimTree", () => {
  it("sums the amounts of one account in any letter case into one lowercased leaf", () => {
    const mixed = getAddress("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd");
    const tree = buildClaimTree([
      { account: mixed, amount: 10n },
      { account: B, amount: 1n },
      { account: mixed.toLowerCase(), amount: 32n },
      { account: B, amount: 2n ** 200n },
    ]);
    expect(tree.leaves).toEqual([
      { account: B, amount: 2n ** 200n + 1n },
      { account: "0xabcdefabcdefabcdefabcdefabcdefabcdefabcd", amount: 42n },
    ]);
    expect(tree.proof(mixed)?.amount).toBe(42n);
    expect(tree.proof(mixed.toUpperCase().replace("0X", "0x"))?.amount).toBe(42n);
  });

  it("gives the root of two leaves as the pair hash of their leaf hashes", () => {
    const tree = buildClaimTree([
      { account: A, amount: 5n },
      { account: B, amount: 7n },
    ]);
    const [x, y] = [leafHash(A, 5n), leafHash(B, 7n)].sort((p, q) => (BigInt(p) < BigInt(q) ? -1 : 1)) as [string, string];
    expect(tree.root).toBe(keccak256(concat([x, y])));
    expect(tree.proof(A)).toEqual({ amount: 5n, proof: [leafHash(B, 7n)] });
  });

  it("gives a one-leaf tree the leaf hash as root and an empty proof", () => {
    const tree = buildClaimTree([{ account: C, amount: MAX_UINT256 }]);
    expect(tree.root).toBe(leafHash(C, MAX_UINT256));
    expect(tree.proof(C)).toEqual({ amount: MAX_UINT256, proof: [] });
  });

  it("does not depend on the order of the leaves", () => {
    const leaves = [
      { account: A, amount: 1n },
      { account: B, amount: 2n },
      { account: C, amount: 3n },
    ];
    expect(buildClaimTree([...leaves].reverse()).root).toBe(buildClaimTree(leaves).root);
  });

  it("answers undefined for an account without a leaf or a malformed account", () => {
    const tree = buildClaimTree([{ account: A, amount: 1n }]);
    expect(tree.proof(B)).toBeUndefined();
    expect(tree.proof("not an address")).toBeUndefined();
    expect(tree.proof(undefined as unknown as string)).toBeUndefined();
  });

  it.each([
    ["a malformed address", { account: "0x1234", amount: 1n }, "leaves[1].account", "must be a 0x-prefixed 20-byte EVM address"],
    ["an address with a wrong checksum", { account: "0xAbcdefabcdefabcdefabcdefabcdefabcdefabcd", amount: 1n }, "leaves[1].account", "EVM address"],
    ["an address without 0x", { account: "1111111111111111111111111111111111111111", amount: 1n }, "leaves[1].account", "EVM address"],
    ["a missing account", { amount: 1n }, "leaves[1].account", "EVM address"],
    ["a zero amount", { account: B, amount: 0n }, "leaves[1].amount", "must be greater than 0"],
    ["a negative amount", { account: B, amount: -5n }, "leaves[1].amount", "must be greater than 0"],
    ["an amount above uint256", { account: B, amount: MAX_UINT256 + 1n }, "leaves[1].amount", "must fit in uint256"],
    ["a number amount", { account: B, amount: 5 }, "leaves[1].amount", "must be a bigint"],
    ["a string amount", { account: B, amount: "5" }, "leaves[1].amount", "must be a bigint"],
  ])("rejects %s with invalid-claim-leaf naming the field", (_name, bad, field, text) => {
    const err = codeOf(() => buildClaimTree([{ account: A, amount: 1n }, bad as unknown as ClaimLeaf]));
    expect(err).toMatchObject({ code: "invalid-claim-leaf", field });
    expect(err.message).toContain(field);
    expect(err.message).toContain(text);
  });

  it("rejects a sum that overflows uint256", () => {
    const err = codeOf(() =>
      buildClaimTree([
        { account: A, amount: MAX_UINT256 },
        { account: A, amount: 1n },
      ]),
    );
    expect(err).toMatchObject({ code: "invalid-claim-leaf", field: "leaves[1].amount" });
    expect(err.message).toContain("exceed uint256");
  });

  it("rejects no leaves with empty-claim-tree, and a non-array with invalid-claim-leaf", () => {
    expect(codeOf(() => buildClaimTree([]))).toMatchObject({ code: "empty-claim-tree", field: "leaves" });
    expect(codeOf(() => buildClaimTree(null as unknown as ClaimLeaf[]))).toMatchObject({ code: "invalid-claim-leaf", field: "leaves" });
  });
});

describe("loadClaimTree", () => {
  const tree = buildClaimTree([
    { account: A, amount: 10n },
    { account: B, amount: 20n },
    { account: C, amount: 30n },
  ]);

  it("reads back what toJSON stored, through a JSON text", () => {
    const loaded = loadClaimTree(JSON.parse(JSON.stringify(tree.toJSON())));
    expect(loaded.root).toBe(tree.root);
    expect(loaded.leaves).toEqual(tree.leaves);
    for (const { account } of tree.leaves) expect(loaded.proof(account)).toEqual(tree.proof(account));
  });

  it("stores OpenZeppelin's standard-v1 format", () => {
    const oz = StandardMerkleTree.load(tree.toJSON() as never);
    expect(oz.root).toBe(tree.root);
  });

  const stored = () => JSON.parse(JSON.stringify(tree.toJSON()));
  it.each([
    ["not an object", () => "tree", "expected an object"],
    ["null", () => null, "expected an object"],
    ["another format", () => ({ ...stored(), format: "simple-v1" }), "format"],
    ["another leaf encoding", () => ({ ...stored(), leafEncoding: ["address", "uint128"] }), "leafEncoding"],
    [
      "a changed amount",
      () => {
        const s = stored();
        s.values[0].value[1] = "11";
        return s;
      },
      "",
    ],
    [
      "a changed tree node",
      () => {
        const s = stored();
        s.tree[0] = `0x${"ab".repeat(32)}`;
        return s;
      },
      "",
    ],
  ])("rejects %s with invalid-claim-tree", (_name, make, text) => {
    const err = codeOf(() => loadClaimTree(make()));
    expect(err.code).toBe("invalid-claim-tree");
    expect(err.message).toContain(text);
  });

  it("rejects a consistent tree whose leaves break the rules (zero amount, checksummed or repeated account)", () => {
    const zero = StandardMerkleTree.of([[A, "0"]], ["address", "uint256"]).dump();
    expect(codeOf(() => loadClaimTree(zero))).toMatchObject({ code: "invalid-claim-tree" });
    const checksummed = StandardMerkleTree.of([[getAddress("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd"), "1"]], ["address", "uint256"]).dump();
    expect(codeOf(() => loadClaimTree(checksummed)).message).toContain("lowercase");
    const twice = StandardMerkleTree.of(
      [
        [A, "1"],
        [A, "2"],
      ],
      ["address", "uint256"],
    ).dump();
    expect(codeOf(() => loadClaimTree(twice)).message).toContain("appears twice");
  });
});

describe("proofs (property)", () => {
  const leafArb = fc.record({
    account: fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}`),
    amount: fc.bigInt({ min: 1n, max: 2n ** 128n }),
  });

  it("every account's proof verifies against the root, and none verifies for a changed amount", () => {
    fc.assert(
      fc.property(fc.array(leafArb, { minLength: 1, maxLength: 40 }), fc.bigInt({ min: 1n, max: 2n ** 64n }), (leaves, delta) => {
        const tree = buildClaimTree(leaves);
        const sums = new Map<string, bigint>();
        for (const { account, amount } of leaves) sums.set(account, (sums.get(account) ?? 0n) + amount);
        expect(tree.leaves).toHaveLength(sums.size);
        for (const [account, amount] of sums) {
          const entry = tree.proof(account);
          expect(entry?.amount).toBe(amount);
          const proof = entry?.proof as string[];
          expect(verify(tree.root, account, amount, proof)).toBe(true);
          expect(StandardMerkleTree.verify(tree.root, ["address", "uint256"], [account, amount], proof)).toBe(true);
          expect(verify(tree.root, account, amount + delta, proof)).toBe(false);
          expect(verify(tree.root, account, amount - 1n, proof)).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});

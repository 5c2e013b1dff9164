// PointwiseClaims on a real hardhat chain: epoch claims with Merkle proofs, burn vouchers, ownership and signer rotation.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ConflictError } from "@pointwise/errors";
import { type HardhatNode, startHardhatNode } from "@pointwise/testkit";
import { AbiCoder, Contract, ContractFactory, getAddress, Interface, Wallet, ZeroHash } from "ethers";
import {
  type BurnVoucher,
  buildClaimTree,
  burnVoucherDigest,
  CLAIMS_ABI,
  type ClaimsDomain,
  compileClaimsContract,
  compileSolidity,
  deployClaimsContract,
  publishEpochRoot,
  readEpoch,
  signBurnVoucher,
} from "../src";
import { hashPair, leafHash, voucherDigest } from "./written-out";

const E18 = 10n ** 18n;
const coder = AbiCoder.defaultAbiCoder();

let node: HardhatNode;
let owner: Wallet;
let signerKey: Wallet; // the voucher signer (never sends transactions)
let relayer: Wallet; // submits other people's claims
let users: Wallet[];
let token: Contract;
let claims: Contract;
let claimsAddress: string;
let domain: ClaimsDomain;
const compiledInterface = new Interface(compileClaimsContract().abi as never);

/** The address of test user `i`. */
function addr(i: number): string {
  return (users[i] as Wallet).address;
}

async function balanceOf(account: string): Promise<bigint> {
  return (await token.getFunction("balanceOf")(account)) as bigint;
}

async function send(contract: Contract, from: Wallet, fn: string, ...args: unknown[]) {
  const tx = await (contract.connect(from) as Contract).getFunction(fn)(...args);
  return tx.wait();
}

/** The custom error a transaction reverted with, decoded with the compiler's ABI of the contract. */
async function revertOf(promise: Promise<unknown>): Promise<{ name: string; args: unknown[] }> {
  try {
    await promise;
  } catch (err) {
    const data = (err as { data?: string }).data;
    const parsed = data ? compiledInterface.parseError(data) : null;
    if (parsed) return { name: parsed.name, args: [...parsed.args] };
    throw err;
  }
  throw new Error("expected the call to revert");
}

async function latestTimestamp(): Promise<bigint> {
  const block = await node.provider.getBlock("latest");
  return BigInt(block?.timestamp ?? 0);
}

beforeAll(async () => {
  node = await startHardhatNode({ accounts: 10 });
  [owner, signerKey, relayer] = [node.wallet(0), node.wallet(1), node.wallet(2)];
  users = [3, 4, 5, 6, 7].map((i) => node.wallet(i));
  const source = readFileSync(path.join(__dirname, "contracts", "TestToken.sol"), "utf8");
  const { TestToken } = compileSolidity({ sources: { "TestToken.sol": source } });
  if (!TestToken) throw new Error("TestToken did not compile");
  const tokenContract = await new ContractFactory(TestToken.abi as never, TestToken.bytecode, owner).deploy(1_000_000n * E18);
  await tokenContract.waitForDeployment();
  token = new Contract(await tokenContract.getAddress(), TestToken.abi as never, node.provider);
  claimsAddress = await deployClaimsContract(owner, { token: await token.getAddress(), voucherSigner: signerKey.address });
  claims = new Contract(claimsAddress, CLAIMS_ABI, node.provider);
  await send(token, owner, "transfer", claimsAddress, 10_000n * E18); // funding is a plain transfer
  domain = { chainId: node.chainId, verifyingContract: claimsAddress };
}, 120_000);

afterAll(async () => {
  await node?.stop();
});

describe("deployment", () => {
  it("sets the token, the voucher signer and the deployer as owner", async () => {
    expect(await claims.getFunction("token")()).toBe(await token.getAddress());
    expect(await claims.getFunction("voucherSigner")()).toBe(signerKey.address);
    expect(await claims.getFunction("owner")()).toBe(owner.address);
    expect(await balanceOf(claimsAddress)).toBe(10_000n * E18);
  });

  it("deploys with another owner when one is given", async () => {
    const other = await deployClaimsContract(owner, { token: await token.getAddress(), voucherSigner: signerKey.address, owner: addr(0) });
    expect(await new Contract(other, CLAIMS_ABI, node.provider).getFunction("owner")()).toBe(addr(0));
  });
});

describe("epoch claims", () => {
  const epoch = 1n;
  // Six entries for four accounts: user 0 appears twice (one in lowercase), so its leaf is 100 + 5 tokens.
  const entries = () => [
    { account: addr(0), amount: 100n * E18 },
    { account: addr(1), amount: 250n * E18 },
    { account: addr(2), amount: 1n },
    { account: addr(3), amount: 7n * E18 + 3n },
    { account: addr(0).toLowerCase(), amount: 5n * E18 },
  ];
  const expected = () =>
    new Map<string, bigint>([
      [addr(0), 105n * E18],
      [addr(1), 250n * E18],
      [addr(2), 1n],
      [addr(3), 7n * E18 + 3n],
    ]);

  it("builds the root OpenZeppelin's tree layout gives for four leaves", () => {
    const tree = buildClaimTree(entries());
    // With a power-of-two count the tree is perfect: leaf hashes sorted ascending, paired neighbour by neighbour.
    const hashes = [...expected()].map(([account, amount]) => leafHash(account, amount)).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const [h0, h1, h2, h3] = hashes as [string, string, string, string];
    expect(tree.root).toBe(hashPair(hashPair(h0, h1), hashPair(h2, h3)));
    expect(tree.leaves).toHaveLength(4);
  });

  it("pays every account exactly its amount once the root is published", async () => {
    const tree = buildClaimTree(entries());
    expect((await readEpoch(node.provider, claimsAddress, epoch)).root).toBe(ZeroHash);
    const published = await publishEpochRoot(owner, claimsAddress, epoch, tree.root);
    expect(published.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await readEpoch(node.provider, claimsAddress, epoch)).root).toBe(tree.root);
    const poolBefore = await balanceOf(claimsAddress);
    let paid = 0n;
    for (const [account, amount] of expected()) {
      const entry = tree.proof(account);
      expect(entry?.amount).toBe(amount);
      expect(await readEpoch(node.provider, claimsAddress, epoch, account)).toEqual({ root: tree.root, claimed: false });
      const before = await balanceOf(account);
      // Anyone may submit; the tokens go to the account.
      const receipt = await send(claims, relayer, "claim", epoch, account, amount, entry?.proof);
      expect(await balanceOf(account)).toBe(before + amount);
      const event = claims.interface.parseLog(receipt.logs.find((l: { address: string }) => l.address === claimsAddress));
      expect(event?.name).toBe("Claimed");
      expect([...(event?.args ?? [])]).toEqual([epoch, account, amount]);
      expect((await readEpoch(node.provider, claimsAddress, epoch, account)).claimed).toBe(true);
      paid += amount;
    }
    expect(await balanceOf(claimsAddress)).toBe(poolBefore - paid);
    expect(paid).toBe(105n * E18 + 250n * E18 + 1n + 7n * E18 + 3n);
  });

  it("reverts a second claim with AlreadyClaimed", async () => {
    const tree = buildClaimTree(entries());
    const account = addr(1);
    const entry = tree.proof(account);
    const revert = await revertOf(send(claims, relayer, "claim", epoch, account, entry?.amount, entry?.proof));
    expect(revert).toEqual({ name: "AlreadyClaimed", args: [epoch, account] });
  });

  it("reverts a wrong proof, a wrong amount and a wrong account with InvalidProof", async () => {
    const epoch2 = 2n;
    const tree = buildClaimTree(entries());
    await publishEpochRoot(owner, claimsAddress, epoch2, tree.root);
    const a = addr(0);
    const b = addr(1);
    const pa = tree.proof(a);
    const pb = tree.proof(b);
    const cases: [string, bigint, string[]][] = [
      [a, pa?.amount as bigint, pb?.proof as string[]], // another account's proof
      [a, (pa?.amount as bigint) + 1n, pa?.proof as string[]], // one base unit more
      [a, (pa?.amount as bigint) - 1n, pa?.proof as string[]], // one base unit less
      [addr(4), pa?.amount as bigint, pa?.proof as string[]], // an account without a leaf
      [a, pa?.amount as bigint, []], // no proof
    ];
    for (const [account, amount, proof] of cases) {
      expect(await revertOf(send(claims, relayer, "claim", epoch2, account, amount, proof))).toEqual({ name: "InvalidProof", args: [] });
    }
    expect(await balanceOf(addr(4))).toBe(0n);
  });

  it("reverts a claim on an unpublished epoch with UnknownEpoch", async () => {
    const tree = buildClaimTree(entries());
    const account = addr(0);
    const entry = tree.proof(account);
    expect(await revertOf(send(claims, relayer, "claim", 99n, account, entry?.amount, entry?.proof))).toEqual({ name: "UnknownEpoch", args: [99n] });
  });

  it("refuses to publish an epoch's root twice", async () => {
    const other = buildClaimTree([{ account: relayer.address, amount: 1n }]);
    await expect(publishEpochRoot(owner, claimsAddress, epoch, other.root)).rejects.toMatchObject({ code: "epoch-root-already-set" });
    await expect(publishEpochRoot(owner, claimsAddress, epoch, other.root)).rejects.toBeInstanceOf(ConflictError);
    expect(await revertOf(send(claims, owner, "publishRoot", epoch, other.root))).toEqual({ name: "RootAlreadySet", args: [epoch] });
    expect((await readEpoch(node.provider, claimsAddress, epoch)).root).toBe(buildClaimTree(entries()).root);
  });

  it("refuses a root from anyone but the owner, and a zero root", async () => {
    const tree = buildClaimTree([{ account: relayer.address, amount: 1n }]);
    // A conflict with the deployment's settings (the HTTP layer answers 409), not a credential error: a 401 would sign the operator out.
    await expect(publishEpochRoot(relayer, claimsAddress, 50n, tree.root)).rejects.toBeInstanceOf(ConflictError);
    await expect(publishEpochRoot(relayer, claimsAddress, 50n, tree.root)).rejects.toMatchObject({ code: "not-claims-owner" });
    expect(await revertOf(send(claims, relayer, "publishRoot", 50n, tree.root))).toEqual({ name: "OwnableUnauthorizedAccount", args: [relayer.address] });
    expect(await revertOf(send(claims, owner, "publishRoot", 50n, ZeroHash))).toEqual({ name: "ZeroRoot", args: [] });
    expect((await readEpoch(node.provider, claimsAddress, 50n)).root).toBe(ZeroHash);
  });

  it("verifies proofs of a tree with an odd number of leaves", async () => {
    const amounts = [11n, 22n, 33n, 44n, 55n];
    const tree = buildClaimTree(users.map((u, i) => ({ account: u.address, amount: amounts[i] as bigint })));
    await publishEpochRoot(owner, claimsAddress, 3n, tree.root);
    for (const [i, u] of users.entries()) {
      const before = await balanceOf(u.address);
      const entry = tree.proof(u.address);
      await send(claims, u, "claim", 3n, u.address, entry?.amount, entry?.proof);
      expect(await balanceOf(u.address)).toBe(before + (amounts[i] as bigint));
    }
  });
});

describe("burn vouchers", () => {
  let nonce = 1000n;
  const voucherFor = async (user: string, amount: bigint, expiresIn = 3600n): Promise<BurnVoucher> => ({
    user,
    amount,
    nonce: nonce++,
    expiry: (await latestTimestamp()) + expiresIn,
  });
  const redeem = (from: Wallet, v: BurnVoucher, signature: string) => send(claims, from, "redeem", v.user, v.amount, v.nonce, v.expiry, signature);

  it("computes the digest the contract computes and EIP-712 prescribes", async () => {
    const v = await voucherFor(addr(0), 12n * E18);
    const onChain = (await claims.getFunction("voucherDigest")(v.user, v.amount, v.nonce, v.expiry)) as string;
    const written = voucherDigest(domain, v);
    expect(onChain).toBe(written);
    expect(burnVoucherDigest(domain, v)).toBe(written);
  });

  it("redeems a signed voucher once, paying its amount to the user", async () => {
    const user = users[1] as Wallet;
    const v = await voucherFor(user.address, 42n * E18 + 7n);
    const signature = await signBurnVoucher(signerKey.privateKey, domain, v);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    const before = await balanceOf(user.address);
    const receipt = await redeem(relayer, v, signature);
    expect(await balanceOf(user.address)).toBe(before + 42n * E18 + 7n);
    const event = claims.interface.parseLog(receipt.logs.find((l: { address: string }) => l.address === claimsAddress));
    expect(event?.name).toBe("Redeemed");
    expect([...(event?.args ?? [])]).toEqual([user.address, v.nonce, v.amount]);
    expect(await claims.getFunction("voucherUsed")(user.address, v.nonce)).toBe(true);
    // The same voucher again, even from the user, is refused.
    expect(await revertOf(redeem(user, v, signature))).toEqual({ name: "VoucherUsed", args: [user.address, v.nonce] });
    expect(await balanceOf(user.address)).toBe(before + 42n * E18 + 7n);
  });

  it("refuses an expired voucher", async () => {
    const user = addr(2);
    const v = await voucherFor(user, 5n, 60n);
    const signature = await signBurnVoucher(signerKey.privateKey, domain, v);
    await node.rpc("evm_increaseTime", [61]);
    await node.rpc("evm_mine", []);
    const before = await balanceOf(user);
    expect(await revertOf(redeem(relayer, v, signature))).toEqual({ name: "VoucherExpired", args: [v.expiry] });
    expect(await balanceOf(user)).toBe(before);
  });

  it("refuses a voucher signed by another key or with any field changed", async () => {
    const user = addr(3);
    const v = await voucherFor(user, 9n * E18);
    const before = await balanceOf(user);
    const stranger = Wallet.createRandom();
    const forged = await signBurnVoucher(stranger.privateKey, domain, v);
    expect(await revertOf(redeem(relayer, v, forged))).toEqual({ name: "InvalidSignature", args: [] });
    const signature = await signBurnVoucher(signerKey.privateKey, domain, v);
    const tampered: BurnVoucher[] = [
      { ...v, user: addr(4) },
      { ...v, amount: v.amount + 1n },
      { ...v, nonce: v.nonce + 1n },
      { ...v, expiry: v.expiry + 1n },
    ];
    for (const t of tampered) expect(await revertOf(redeem(relayer, t, signature))).toEqual({ name: "InvalidSignature", args: [] });
    // Signed for another chain or another contract.
    const otherChain = await signBurnVoucher(signerKey.privateKey, { ...domain, chainId: 1n }, v);
    const otherContract = await signBurnVoucher(signerKey.privateKey, { ...domain, verifyingContract: getAddress(`0x${"12".repeat(20)}`) }, v);
    for (const s of [otherChain, otherContract, "0x", `0x${"00".repeat(65)}`]) {
      expect(await revertOf(redeem(relayer, v, s))).toEqual({ name: "InvalidSignature", args: [] });
    }
    // The same signature made malleable (s -> n - s, v flipped) recovers the same key, yet is refused.
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const sValue = BigInt(`0x${signature.slice(66, 130)}`);
    const vByte = Number.parseInt(signature.slice(130), 16);
    const malleable = `${signature.slice(0, 66)}${(n - sValue).toString(16).padStart(64, "0")}${(vByte === 27 ? 28 : 27).toString(16)}`;
    const digest = (await claims.getFunction("voucherDigest")(v.user, v.amount, v.nonce, v.expiry)) as string;
    // The chain's raw ecrecover precompile (which accepts a high s) recovers the signer from it.
    const ecrecover = await node.provider.call({
      to: "0x0000000000000000000000000000000000000001",
      data: coder.encode(
        ["bytes32", "uint8", "bytes32", "bytes32"],
        [digest, vByte === 27 ? 28 : 27, `0x${malleable.slice(2, 66)}`, `0x${malleable.slice(66, 130)}`],
      ),
    });
    expect(getAddress(`0x${ecrecover.slice(26)}`)).toBe(signerKey.address);
    expect(await revertOf(redeem(relayer, v, malleable))).toEqual({ name: "InvalidSignature", args: [] });
    expect(await balanceOf(user)).toBe(before);
    // The genuine signature still works afterwards: the refusals used nothing up.
    await redeem(relayer, v, signature);
    expect(await balanceOf(user)).toBe(before + 9n * E18);
  });

  it("rotates the voucher signer: only the owner may, and only the new signer's vouchers redeem", async () => {
    const user = addr(4);
    const next = Wallet.createRandom();
    expect(await revertOf(send(claims, relayer, "setVoucherSigner", next.address))).toEqual({ name: "OwnableUnauthorizedAccount", args: [relayer.address] });
    const oldVoucher = await voucherFor(user, 3n);
    const oldSignature = await signBurnVoucher(signerKey.privateKey, domain, oldVoucher);
    const receipt = await send(claims, owner, "setVoucherSigner", next.address);
    const event = claims.interface.parseLog(receipt.logs[0]);
    expect(event?.name).toBe("VoucherSignerChanged");
    expect([...(event?.args ?? [])]).toEqual([signerKey.address, next.address]);
    expect(await claims.getFunction("voucherSigner")()).toBe(next.address);
    expect(await revertOf(redeem(relayer, oldVoucher, oldSignature))).toEqual({ name: "InvalidSignature", args: [] });
    const newVoucher = await voucherFor(user, 4n);
    const before = await balanceOf(user);
    await redeem(relayer, newVoucher, await signBurnVoucher(next.privateKey, domain, newVoucher));
    expect(await balanceOf(user)).toBe(before + 4n);
    await send(claims, owner, "setVoucherSigner", signerKey.address);
  });

  it("lets the owner withdraw the balance and nobody else", async () => {
    expect(await revertOf(send(claims, relayer, "withdraw", relayer.address, 1n))).toEqual({ name: "OwnableUnauthorizedAccount", args: [relayer.address] });
    const pool = await balanceOf(claimsAddress);
    const before = await balanceOf(owner.address);
    await send(claims, owner, "withdraw", owner.address, pool);
    expect(await balanceOf(claimsAddress)).toBe(0n);
    expect(await balanceOf(owner.address)).toBe(before + pool);
  });
});

describe("an underfunded contract", () => {
  it("reverts a claim it cannot pay, marks nothing, and pays it once funded", async () => {
    const account = addr(0);
    const tree = buildClaimTree([
      { account, amount: 10n * E18 },
      { account: addr(1), amount: 1n },
    ]);
    await publishEpochRoot(owner, claimsAddress, 4n, tree.root);
    const entry = tree.proof(account);
    const pool = await balanceOf(claimsAddress);
    let reverted: { name: string; args: unknown[] } | undefined;
    try {
      await send(claims, relayer, "claim", 4n, account, entry?.amount, entry?.proof);
    } catch (err) {
      // The token's own error comes back through SafeERC20.
      const parsed = token.interface.parseError((err as { data: string }).data);
      reverted = parsed ? { name: parsed.name, args: [...parsed.args] } : undefined;
    }
    expect(reverted).toEqual({ name: "ERC20InsufficientBalance", args: [claimsAddress, pool, 10n * E18] });
    expect((await readEpoch(node.provider, claimsAddress, 4n, account)).claimed).toBe(false);
    await send(token, owner, "transfer", claimsAddress, 10n * E18);
    const before = await balanceOf(account);
    await send(claims, relayer, "claim", 4n, account, entry?.amount, entry?.proof);
    expect(await balanceOf(account)).toBe(before + 10n * E18);
    expect((await readEpoch(node.provider, claimsAddress, 4n, account)).claimed).toBe(true);
  });
});

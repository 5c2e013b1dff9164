// PointwiseClaims on chain: compile the shipped source, deploy it, publish epoch roots and read epochs.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ConflictError, ValidationError } from "@pointwise/errors";
import {
  Contract,
  ContractFactory,
  type ContractTransactionResponse,
  getAddress,
  Interface,
  isAddress,
  isHexString,
  type Provider,
  type Signer,
  ZeroHash,
} from "ethers";
import { type CompiledContract, compileSolidity } from "./compile";

/** The functions, events and errors of PointwiseClaims the service calls or decodes (human-readable ABI). */
export const CLAIMS_ABI = [
  "constructor(address token_, address voucherSigner_, address owner_)",
  "function token() view returns (address)",
  "function voucherSigner() view returns (address)",
  "function owner() view returns (address)",
  "function epochRoot(uint256 epoch) view returns (bytes32 root)",
  "function claimed(uint256 epoch, address account) view returns (bool)",
  "function voucherUsed(address user, uint256 nonce) view returns (bool)",
  "function voucherDigest(address user, uint256 amount, uint256 nonce, uint256 expiry) view returns (bytes32)",
  "function publishRoot(uint256 epoch, bytes32 root)",
  "function claim(uint256 epoch, address account, uint256 amount, bytes32[] proof)",
  "function redeem(address user, uint256 amount, uint256 nonce, uint256 expiry, bytes signature)",
  "function setVoucherSigner(address newSigner)",
  "function withdraw(address to, uint256 amount)",
  "event RootPublished(uint256 indexed epoch, bytes32 root)",
  "event Claimed(uint256 indexed epoch, address indexed account, uint256 amount)",
  "event Redeemed(address indexed user, uint256 indexed nonce, uint256 amount)",
  "event VoucherSignerChanged(address indexed previousSigner, address indexed newSigner)",
  "event Withdrawn(address indexed to, uint256 amount)",
  "event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)",
  "error ZeroAddress()",
  "error ZeroRoot()",
  "error RootAlreadySet(uint256 epoch)",
  "error UnknownEpoch(uint256 epoch)",
  "error AlreadyClaimed(uint256 epoch, address account)",
  "error InvalidProof()",
  "error VoucherExpired(uint256 expiry)",
  "error VoucherUsed(address user, uint256 nonce)",
  "error InvalidSignature()",
  "error OwnableUnauthorizedAccount(address account)",
  "error OwnableInvalidOwner(address owner)",
  "error SafeERC20FailedOperation(address token)",
] as const;

const SOURCE_NAME = "PointwiseClaims.sol";

/** The path of the shipped Solidity source (also found when this package is bundled into an app). */
export function claimsContractSourcePath(): string {
  const beside = path.join(__dirname, "..", "contracts", SOURCE_NAME);
  if (existsSync(beside)) return beside;
  return path.join(path.dirname(require.resolve("@pointwise/claims/package.json")), "contracts", SOURCE_NAME);
}

/** The claims contract (Solidity source shipped in packages/claims/contracts/PointwiseClaims.sol), compiled with solc-js (cached). */
export function compileClaimsContract(): CompiledContract {
  const compiled = compileSolidity({ sources: { [SOURCE_NAME]: readFileSync(claimsContractSourcePath(), "utf8") } });
  const claims = compiled.PointwiseClaims;
  if (!claims) throw new Error(`${SOURCE_NAME} compiled without a PointwiseClaims contract`);
  return claims;
}

/** Deploys PointwiseClaims(token, voucherSigner, owner = args.owner or the signer) and returns its address once mined. */
export async function deployClaimsContract(signer: Signer, args: { token: string; voucherSigner: string; owner?: string | undefined }): Promise<string> {
  const token = address(args?.token, "token");
  const voucherSigner = address(args?.voucherSigner, "voucherSigner");
  const owner = args.owner === undefined ? await signer.getAddress() : address(args.owner, "owner");
  const { abi, bytecode } = compileClaimsContract();
  const contract = await new ContractFactory(abi as never, bytecode, signer).deploy(token, voucherSigner, owner);
  await contract.waitForDeployment();
  return contract.getAddress();
}

/**
 * Publishes an epoch's root (owner only; a root is set once per epoch). Resolves when the transaction is mined.
 * Throws ConflictError "epoch-root-already-set" or "not-claims-owner" when the contract refuses.
 */
export async function publishEpochRoot(signer: Signer, contract: string, epoch: bigint, root: string): Promise<{ txHash: string; blockNumber: number }> {
  const at = address(contract, "contract");
  uint256(epoch, "epoch");
  if (typeof root !== "string" || !isHexString(root, 32) || root === ZeroHash) {
    throw new ValidationError("root must be a non-zero 0x-prefixed bytes32", { code: "invalid-epoch-root", field: "root" });
  }
  const claims = new Contract(at, CLAIMS_ABI, signer);
  let tx: ContractTransactionResponse;
  try {
    tx = (await claims.getFunction("publishRoot")(epoch, root)) as ContractTransactionResponse;
  } catch (err) {
    const revert = decodeClaimsRevert(err)?.name;
    if (revert === "RootAlreadySet") throw new ConflictError("epoch-root-already-set", `epoch ${epoch} already has a root on ${at}`, { cause: err });
    if (revert === "OwnableUnauthorizedAccount") {
      // A conflict with the deployment's settings, not the caller's credentials: an HTTP 401 would sign an operator out.
      throw new ConflictError("not-claims-owner", `${await signer.getAddress()} is not the owner of ${at} and cannot publish roots`, { cause: err });
    }
    throw err;
  }
  const receipt = await tx.wait();
  if (!receipt) throw new Error("publishRoot transaction has no receipt");
  return { txHash: receipt.hash, blockNumber: receipt.blockNumber };
}

/** Reads the root of an epoch (bytes32 zero when unpublished) and, given an account, whether it has claimed the epoch. */
export async function readEpoch(provider: Provider, contract: string, epoch: bigint, account?: string): Promise<{ root: string; claimed?: boolean }> {
  const claims = new Contract(address(contract, "contract"), CLAIMS_ABI, provider);
  uint256(epoch, "epoch");
  const who = account === undefined ? undefined : address(account, "account");
  const root = (await claims.getFunction("epochRoot")(epoch)) as string;
  if (who === undefined) return { root };
  const claimed = (await claims.getFunction("claimed")(epoch, who)) as boolean;
  return { root, claimed };
}

const claimsInterface = new Interface(CLAIMS_ABI);

/**
 * The PointwiseClaims custom error a failed call or transaction reverted with (`{ name: "InvalidProof", args: [] }`),
 * or undefined when the failure is something else. ethers decodes reverts of static calls only; a transaction that
 * fails its gas estimate carries the raw revert data, which this decodes too.
 */
export function decodeClaimsRevert(err: unknown): { name: string; args: unknown[] } | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { revert?: { name: string; args: ArrayLike<unknown> } | null; data?: unknown };
  if (e.revert) return { name: e.revert.name, args: Array.from(e.revert.args) };
  if (typeof e.data !== "string" || !isHexString(e.data) || e.data.length < 10) return undefined;
  try {
    const parsed = claimsInterface.parseError(e.data);
    return parsed ? { name: parsed.name, args: [...parsed.args] } : undefined;
  } catch {
    return undefined;
  }
}

function address(value: unknown, field: string): string {
  if (typeof value !== "string" || !value.startsWith("0x") || !isAddress(value)) {
    throw new ValidationError(`${field} must be a 0x-prefixed 20-byte EVM address`, { code: "invalid-address", field });
  }
  return getAddress(value);
}

function uint256(value: unknown, field: string): void {
  if (typeof value !== "bigint" || value < 0n || value >= 1n << 256n) {
    throw new ValidationError(`${field} must be a bigint from 0 to 2^256-1`, { code: "invalid-epoch", field });
  }
}

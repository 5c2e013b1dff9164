// The hand-written ABI against the compiler's, and the input checks of deploy, publish and read (before anything is sent).
import { ValidationError } from "@pointwise/errors";
import { Interface, JsonRpcProvider, Wallet, ZeroHash } from "ethers";
import { CLAIMS_ABI, compileClaimsContract, decodeClaimsRevert, deployClaimsContract, publishEpochRoot, readEpoch } from "./contract";

const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const ROOT = `0x${"ab".repeat(32)}`;

describe("CLAIMS_ABI", () => {
  const compiled = new Interface(compileClaimsContract().abi as never);
  const written = new Interface(CLAIMS_ABI);
  // Entries of OpenZeppelin's bases the service never calls or decodes.
  const unused = new Set([
    "renounceOwnership",
    "transferOwnership",
    "eip712Domain",
    "BURN_VOUCHER_TYPEHASH",
    "EIP712DomainChanged",
    "InvalidShortString",
    "StringTooLong",
  ]);
  const signatures = (i: Interface) => {
    const out: string[] = [];
    i.forEachFunction((f) => out.push(f.format("full")));
    i.forEachEvent((e) => out.push(e.format("full")));
    i.forEachError((e) => out.push(e.format("full")));
    return out;
  };

  it("matches the compiled contract entry for entry", () => {
    const fromCompiler = signatures(compiled).filter((s) => !unused.has(s.split(/[ (]/)[1] as string));
    expect(signatures(written).sort()).toEqual(fromCompiler.sort());
    expect(written.deploy.format("full")).toBe(compiled.deploy.format("full"));
  });

  it("decodes a revert's data into the error's name and arguments", () => {
    const data = compiled.encodeErrorResult("AlreadyClaimed", [7n, CONTRACT]);
    expect(decodeClaimsRevert({ data })).toEqual({ name: "AlreadyClaimed", args: [7n, CONTRACT] });
    expect(decodeClaimsRevert({ data: "0x12345678" })).toBeUndefined();
    expect(decodeClaimsRevert(new Error("socket hang up"))).toBeUndefined();
    expect(decodeClaimsRevert(null)).toBeUndefined();
  });
});

async function failure(promise: Promise<unknown>): Promise<ValidationError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error("expected a ValidationError");
}

describe("input checks", () => {
  // Nothing listens here: every case must fail before a request is sent.
  const provider = new JsonRpcProvider("http://127.0.0.1:9", 31337, { staticNetwork: true });
  const signer = Wallet.createRandom().connect(provider);
  afterAll(() => provider.destroy());

  it.each([
    ["token", { token: "0x12", voucherSigner: CONTRACT }],
    ["voucherSigner", { token: CONTRACT, voucherSigner: "signer" }],
    ["owner", { token: CONTRACT, voucherSigner: CONTRACT, owner: "0xzz" }],
  ])("deployClaimsContract rejects a malformed %s", async (field, args) => {
    const err = await failure(deployClaimsContract(signer, args));
    expect(err).toMatchObject({ code: "invalid-address", field });
    expect(err.message).toBe(`${field} must be a 0x-prefixed 20-byte EVM address`);
  });

  it.each([
    ["contract", "0x1234", 1n, ROOT, "invalid-address"],
    ["epoch", CONTRACT, -1n, ROOT, "invalid-epoch"],
    ["epoch", CONTRACT, 2n ** 256n, ROOT, "invalid-epoch"],
    ["epoch", CONTRACT, 1, ROOT, "invalid-epoch"],
    ["root", CONTRACT, 1n, ZeroHash, "invalid-epoch-root"],
    ["root", CONTRACT, 1n, "0xabcd", "invalid-epoch-root"],
  ])("publishEpochRoot rejects a bad %s (%#)", async (field, contract, epoch, root, code) => {
    const err = await failure(publishEpochRoot(signer, contract, epoch as bigint, root));
    expect(err).toMatchObject({ code, field });
    expect(err.message).toContain(field);
  });

  it.each([
    ["contract", "nope", 1n, undefined, "invalid-address"],
    ["epoch", CONTRACT, -5n, undefined, "invalid-epoch"],
    ["account", CONTRACT, 1n, "0x12", "invalid-address"],
  ])("readEpoch rejects a bad %s", async (field, contract, epoch, account, code) => {
    expect(await failure(readEpoch(provider, contract, epoch, account))).toMatchObject({ code, field });
  });
});

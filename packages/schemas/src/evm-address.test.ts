// EVM addresses: the shape, and EIP-55 checksums checked against the EIP's own test cases.
import { EVM_ADDRESS_PATTERN, isEvmAddress } from "./evm-address";
import { EIP55_CHECKSUMMED } from "./vectors/addresses";

describe("isEvmAddress", () => {
  it.each(EIP55_CHECKSUMMED)("accepts the EIP-55 test case %s", (address) => {
    expect(isEvmAddress(address)).toBe(true);
  });

  it("accepts a checksummed address written all in lower or all in upper case, which carries no checksum", () => {
    const hex = "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    expect(isEvmAddress(`0x${hex.toLowerCase()}`)).toBe(true);
    expect(isEvmAddress(`0x${hex.toUpperCase()}`)).toBe(true);
  });

  it("refuses an EIP-55 test case with the case of one letter flipped", () => {
    // The last letter of 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed, d, written D.
    expect(isEvmAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe(false);
    // The first letter of 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359, f, written F.
    expect(isEvmAddress("0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")).toBe(false);
  });

  it.each([
    ["no 0x", "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
    ["0X", "0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
    ["39 digits", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae"],
    ["41 digits", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed0"],
    ["a character that is not hex", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg"],
    ["a space before it", " 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
    ["nothing", ""],
  ])("refuses a value with %s, and so does the shape", (_what, value) => {
    expect(isEvmAddress(value)).toBe(false);
    expect(EVM_ADDRESS_PATTERN.test(value)).toBe(false);
  });
});

// docs/claims.md names every function, error and event of the compiled contract, every deploy setting, and the EIP-712 domain and type.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";
import { BURN_VOUCHER_TYPES, CLAIMS_EIP712_NAME, CLAIMS_EIP712_VERSION, compileClaimsContract, DEPLOY_SETTINGS } from "../src";

const doc = readFileSync(path.join(repoRoot, "docs", "claims.md"), "utf8");
const abi = compileClaimsContract().abi as { type: string; name?: string }[];

describe("docs/claims.md", () => {
  it.each(["function", "error", "event"])("names every %s of PointwiseClaims", (type) => {
    const names = abi.filter((f) => f.type === type).map((f) => f.name as string);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !doc.includes(`\`${name}`))).toEqual([]);
  });

  it("names every flag and variable of the deploy script", () => {
    for (const [flag, variable] of Object.entries(DEPLOY_SETTINGS)) {
      expect(doc).toContain(`\`${flag}\``);
      expect(doc).toContain(`\`${variable}\``);
    }
  });

  it("gives the EIP-712 domain and the voucher type the code signs", () => {
    expect(doc).toContain(`| \`name\` | \`${CLAIMS_EIP712_NAME}\` |`);
    expect(doc).toContain(`| \`version\` | \`${CLAIMS_EIP712_VERSION}\` |`);
    const type = `BurnVoucher(${BURN_VOUCHER_TYPES.BurnVoucher.map((f) => `${f.type} ${f.name}`).join(",")})`;
    expect(doc).toContain(type);
  });
});

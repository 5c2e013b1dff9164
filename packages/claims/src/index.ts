// Entry point of @pointwise/claims: the PointwiseClaims contract, epoch Merkle trees and EIP-712 burn vouchers.
export { type CompiledContract, type CompileInput, compileSolidity, SolidityCompileError } from "./compile";
export { CLAIMS_ABI, claimsContractSourcePath, compileClaimsContract, decodeClaimsRevert, deployClaimsContract, publishEpochRoot, readEpoch } from "./contract";
export { checkDeployKeys, DEPLOY_SETTINGS, DEPLOY_USAGE, type DeployOptions, LOCAL_CHAIN_ID, parseDeployOptions, whyUnsafeKey } from "./deploy-options";
export { buildClaimTree, CLAIM_LEAF_ENCODING, type ClaimLeaf, type ClaimTree, loadClaimTree, MAX_UINT256 } from "./tree";
export {
  BURN_VOUCHER_TYPES,
  type BurnVoucher,
  burnVoucherDigest,
  CLAIMS_EIP712_NAME,
  CLAIMS_EIP712_VERSION,
  type ClaimsDomain,
  recoverBurnVoucherSigner,
  signBurnVoucher,
} from "./voucher";

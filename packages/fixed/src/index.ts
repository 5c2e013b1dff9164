// The package entry: exact decimals on bigint, shared by the scoring engine and the indexer.
export {
  addFixed,
  divRoundHalfEven,
  eqFixed,
  FIXED_ZERO,
  Fixed,
  formatFixed,
  formatScaled,
  fx,
  halveFixed,
  isPlainDecimal,
  mulFixed,
  parseFixed,
  plainDecimal,
  pow10,
  sig,
  trimDecimal,
} from "./fixed";

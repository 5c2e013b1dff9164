// The `vaultshare` feed: a vault share's USD price is the underlying one share converts to, at the point's block, times the underlying's price.
import { BaseError } from "@pointwise/errors";
import { AbiCoder, id as keccakId } from "ethers";
import { isCallRevert } from "../chain/revert";
import type { FeedSelector } from "../config/schema";
import { Dec } from "../decimal";
import type { Point } from "../windows";
import type { FeedReader } from "./feed-reader";

const coder = AbiCoder.defaultAbiCoder();
const selector = (signature: string) => keccakId(signature).slice(0, 10);
const CALL = {
  asset: selector("asset()"),
  token: selector("token()"),
  pricePerShare: selector("pricePerShare()"),
  convertToAssets: selector("convertToAssets(uint256)"),
};

/** A vault share feed selector. */
export type VaultShareFeed = Extract<FeedSelector, { kind: "vaultshare" }>;

/**
 * The vault's underlying asset (ERC-4626 `asset()`, Yearn V2 `token()`), read once. A vault that reverts the call
 * does not speak the feed's `version`: pricing stops with `feed-config-invalid`, naming the other version.
 */
export function vaultUnderlying(reader: FeedReader, version: VaultShareFeed["version"], vault: string): Promise<string> {
  return reader.cachedFact(`vault:${vault}:asset`, async () => {
    let word: string;
    try {
      word = await reader.chain.call(vault, version === "v2" ? CALL.asset : CALL.token);
    } catch (err) {
      // Only a revert says "not this version"; a call that got no answer is rethrown as it is.
      if (!isCallRevert(err)) throw err;
      const [expected, other] = version === "v2" ? ["asset() (ERC-4626)", "v1 for a vault with pricePerShare()"] : ["token()", "v2 for an ERC-4626 vault"];
      throw new BaseError("feed-config-invalid", `vaultshare of vault ${vault}: could not read ${expected} as version ${version}; use version ${other}`, {
        cause: err,
        details: { vault, version },
      });
    }
    return (coder.decode(["address"], word)[0] as string).toLowerCase();
  });
}

/**
 * Raw underlying units one whole share (10^share decimals) is worth at `block`: ERC-4626 `convertToAssets(10^d)`
 * (v2) or `pricePerShare()` (v1, which Yearn V2 defines as the underlying of 10^d shares).
 */
export async function underlyingPerShare(reader: FeedReader, feed: VaultShareFeed, vault: string, block: number): Promise<bigint> {
  const data =
    feed.version === "v2" ? `${CALL.convertToAssets}${coder.encode(["uint256"], [10n ** BigInt(await reader.decimals(vault))]).slice(2)}` : CALL.pricePerShare;
  return coder.decode(["uint256"], await reader.chain.call(vault, data, block))[0] as bigint;
}

/** USD price of one share of `vault` at `point`: the underlying it converts to at that block times the underlying's price. */
export async function vaultSharePrice(reader: FeedReader, feed: VaultShareFeed, vault: string, point: Point): Promise<Dec | undefined> {
  const asset = await vaultUnderlying(reader, feed.version, vault);
  const [perShare, assetDecimals, assetPrice] = await Promise.all([
    underlyingPerShare(reader, feed, vault, point.block),
    reader.decimals(asset),
    reader.priceWith(feed.underlying, asset, point),
  ]);
  if (assetPrice === undefined) return undefined;
  return new Dec(perShare.toString()).div(new Dec(10).pow(assetDecimals)).times(assetPrice);
}

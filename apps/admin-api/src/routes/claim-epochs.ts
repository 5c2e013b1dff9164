// Admin routes of token-claim epochs: list them, close the open one (its Merkle tree) and publish its root on chain.
import { buildClaimTree, publishEpochRoot } from "@pointwise/claims";
import type { Transaction } from "@pointwise/db";
import { ConflictError, NotFoundError, RetryableError } from "@pointwise/errors";
import { rpcFailure } from "@pointwise/runtime";
import { JsonRpcProvider, Wallet } from "ethers";
import { Router } from "express";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { loadCampaign, loadWritableCampaign } from "../scope";
import { type OperatorSession, sessionOf } from "../session";

interface EpochRow {
  id: string;
  campaign_id: string;
  status: "open" | "closed" | "published";
  root: string | null;
  tx_hash: string | null;
  block_number: string | null;
  created_at: Date;
  closed_at: Date | null;
  published_at: Date | null;
  redemptions: number;
  token_amount: string;
}

const EPOCH_COLUMNS = `e.id::text, e.campaign_id, e.status, e.root, e.tx_hash, e.block_number::text, e.created_at, e.closed_at, e.published_at,
  (SELECT count(*)::int FROM redemption r WHERE r.claim_epoch_id = e.id) AS redemptions,
  (SELECT COALESCE(sum(r.token_amount), 0)::text FROM redemption r WHERE r.claim_epoch_id = e.id) AS token_amount`;

/** An epoch on the wire (its tree stays in the database; participants get their own proof from the portal API). */
function epochJson(e: EpochRow) {
  return {
    epoch: e.id,
    status: e.status,
    root: e.root,
    tx_hash: e.tx_hash,
    block_number: e.block_number,
    redemptions: e.redemptions,
    token_amount: e.token_amount,
    created_at: e.created_at.toISOString(),
    closed_at: e.closed_at?.toISOString() ?? null,
    published_at: e.published_at?.toISOString() ?? null,
  };
}

async function epochOf(q: Pick<Transaction, "query">, campaignId: string, where: string, args: unknown[]): Promise<EpochRow | undefined> {
  const { rows } = await q.query<EpochRow>(`SELECT ${EPOCH_COLUMNS} FROM claim_epoch e WHERE e.campaign_id = $1 AND ${where}`, [campaignId, ...args]);
  return rows[0];
}

/** Token-claim epochs of a campaign: each closes into one Merkle root that the claim contract holds. */
export function claimEpochRoutes(deps: Deps): Router {
  const router = Router();
  const { db, env } = deps;

  // Publishes a closed epoch's root with the owner key; the epoch stays closed (and can be published again) when the chain fails.
  async function publish(session: OperatorSession, campaignId: string, epoch: EpochRow) {
    const { CLAIMS_RPC_URL: url, CLAIMS_CONTRACT: contract, CLAIMS_PUBLISHER_KEY: key, CLAIMS_CHAIN_ID: chainId } = env;
    if (!url || !contract || !key || !chainId)
      throw new ConflictError("claims-not-configured", "set CLAIMS_RPC_URL, CLAIMS_CONTRACT, CLAIMS_CHAIN_ID and CLAIMS_PUBLISHER_KEY to publish epochs");
    const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true });
    let receipt: { txHash: string; blockNumber: number };
    try {
      const network = await provider.getNetwork();
      if (network.chainId !== BigInt(chainId))
        throw new ConflictError("claims-wrong-chain", `CLAIMS_RPC_URL serves chain ${network.chainId}, not CLAIMS_CHAIN_ID ${chainId}`);
      receipt = await publishEpochRoot(new Wallet(key, provider), contract, BigInt(epoch.id), epoch.root as string);
    } catch (err) {
      if (err instanceof ConflictError) throw err;
      // The RPC error's full text repeats CLAIMS_RPC_URL, whose path may hold the provider's key.
      const cause = rpcFailure(err);
      deps.logger.warn({ campaign_id: campaignId, epoch: epoch.id, err: cause }, "publishing an epoch root failed");
      throw new RetryableError("claims-publish-failed", `publishing epoch ${epoch.id} failed; the epoch stays closed, publish it again`, { cause });
    } finally {
      provider.destroy();
    }
    return db.transaction(async (tx) => {
      await tx.query("UPDATE claim_epoch SET status = 'published', tx_hash = $2, block_number = $3, published_at = now() WHERE id = $1", [
        epoch.id,
        receipt.txHash,
        receipt.blockNumber,
      ]);
      const after = epochJson((await epochOf(tx, campaignId, "e.id = $2", [epoch.id])) as EpochRow);
      await recordAudit(tx, session, { campaignId, action: "claim-epoch.publish", target: `claim-epoch:${epoch.id}`, before: epochJson(epoch), after });
      return after;
    });
  }

  router.get("/api/campaigns/:id/claim-epochs", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const { rows } = await db.query<EpochRow>(`SELECT ${EPOCH_COLUMNS} FROM claim_epoch e WHERE e.campaign_id = $1 ORDER BY e.id DESC`, [campaign.id]);
    res.json({ epochs: rows.map(epochJson), contract: env.CLAIMS_CONTRACT ?? null, chain_id: env.CLAIMS_CHAIN_ID ?? null });
  });

  // Closes the open epoch: under the apply lock (no redemption joins it meanwhile) its claims become one tree, stored with its root.
  router.post("/api/campaigns/:id/claim-epochs/close", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const closed = await db.transaction(async (tx) => {
      await tx.lockCampaign("apply", campaign.id);
      const open = await epochOf(tx, campaign.id, "e.status = 'open'", []);
      if (!open)
        throw new NotFoundError("this campaign has no open claim epoch (one opens with its first token-claim redemption)", { code: "claim-epoch-not-found" });
      const { rows } = await tx.query<{ account: string; amount: string }>(
        "SELECT account, token_amount::text AS amount FROM redemption WHERE claim_epoch_id = $1 AND status = 'claimable'",
        [open.id],
      );
      if (rows.length === 0) throw new ConflictError("claim-epoch-empty", `epoch ${open.id} has no claims to close`);
      const tree = buildClaimTree(rows.map((r) => ({ account: r.account, amount: BigInt(r.amount) })));
      await tx.query("UPDATE claim_epoch SET status = 'closed', root = $2, tree = $3, closed_at = now() WHERE id = $1", [
        open.id,
        tree.root,
        JSON.stringify(tree.toJSON()),
      ]);
      const after = (await epochOf(tx, campaign.id, "e.id = $2", [open.id])) as EpochRow;
      await recordAudit(tx, session, {
        campaignId: campaign.id,
        action: "claim-epoch.close",
        target: `claim-epoch:${open.id}`,
        before: epochJson(open),
        after: epochJson(after),
      });
      return after;
    });
    deps.logger.info({ campaign_id: campaign.id, epoch: closed.id, root: closed.root, operator_id: session.operatorId }, "claim epoch closed");
    res.json(await publish(session, campaign.id, closed));
  });

  router.post("/api/campaigns/:id/claim-epochs/:epoch/publish", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const id = /^[1-9][0-9]{0,17}$/.test(req.params.epoch) ? req.params.epoch : "0";
    const epoch = await epochOf(db, campaign.id, "e.id = $2", [id]);
    if (!epoch) throw new NotFoundError(`claim epoch ${req.params.epoch} not found`, { code: "claim-epoch-not-found" });
    if (epoch.status !== "closed") throw new ConflictError("claim-epoch-not-closed", `epoch ${epoch.id} is ${epoch.status}; only a closed epoch is published`);
    res.json(await publish(session, campaign.id, epoch));
  });

  return router;
}

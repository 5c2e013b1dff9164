// A campaign's rewards: the catalogue with stock and codes, voucher code uploads, redemptions with manual fulfilment, token-claim epochs.
import { type FormEvent, useState } from "react";
import { api } from "../api";
import type { ClaimEpoch, Redemption, Reward } from "../types";
import { Badge, Card, DataTable, Field, formatTime, Notice, shorten, useAction, useLoad } from "../ui";
import type { CampaignContext } from "./campaign-context";

/** Catalogue, codes, redemptions and epochs of one campaign. */
export function RewardsTab(props: { ctx: CampaignContext }) {
  const c = props.ctx.campaign;
  const base = `/api/campaigns/${c.id}`;
  const rewards = useLoad(() => api<{ rewards: Reward[] }>("GET", `${base}/rewards`), [base]);
  // The API answers at most 500 newest; a status filter reaches older pending ones.
  const [shown, setShown] = useState("");
  const redemptions = useLoad(
    () => api<{ redemptions: Redemption[] }>("GET", `${base}/redemptions?limit=500${shown ? `&status=${shown}` : ""}`),
    [base, shown],
  );
  const epochs = useLoad(() => api<{ epochs: ClaimEpoch[]; contract: string | null }>("GET", `${base}/claim-epochs`), [base]);
  const [form, setForm] = useState({ name: "", kind: "voucher", currency: c.primary_currency, price: "", stock: "", token_amount: "" });
  const [codesFor, setCodesFor] = useState("");
  const [codes, setCodes] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const epochAction = useAction();
  const readOnly = Boolean(c.archived_at);
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });
  const reload = () => {
    rewards.reload();
    redemptions.reload();
    epochs.reload();
  };

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    // Number("1,000") is NaN, which JSON sends as null: no limit at all. Only digits are a stock.
    if (form.stock.trim() && !/^\d+$/.test(form.stock.trim())) {
      action.setError("stock: write a whole number of items with digits only (1000, not 1,000), or leave it empty for unlimited");
      return;
    }
    const body = {
      name: form.name,
      kind: form.kind,
      currency: form.currency,
      price: form.price.trim(),
      ...(form.stock.trim() ? { stock: Number(form.stock.trim()) } : {}),
      ...(form.kind === "token-claim" ? { token_amount: form.token_amount.trim() } : {}),
    };
    const made = await action.run(() => api<Reward>("POST", `${base}/rewards`, body));
    if (made) {
      setDone(`${made.name} added.`);
      setForm({ ...form, name: "", price: "", stock: "", token_amount: "" });
      reload();
    }
  };
  const upload = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    // Blank lines are not sent; the API numbers what it gets by position, so each is mapped back to its textarea line.
    const kept = codes
      .split("\n")
      .map((code, i) => ({ code, line: i + 1 }))
      .filter((row) => row.code.trim() !== "");
    const list = kept.map((row) => row.code);
    const out = await action.run(() =>
      api<{ status: string; added: number; invalid_rows: { line: number; message: string }[] }>("POST", `${base}/rewards/${codesFor}/codes?mode=accept-valid`, {
        codes: list,
      }),
    );
    if (out) {
      setDone(
        `${out.added} codes added${out.invalid_rows.length ? `; refused: ${out.invalid_rows.map((r) => `line ${kept[r.line - 1]?.line ?? r.line}: ${r.message}`).join("; ")}` : ""}.`,
      );
      setCodes("");
      reload();
    }
  };
  const archive = async (r: Reward) => {
    if (await action.run(() => api("PATCH", `${base}/rewards/${r.id}`, { status: r.status === "active" ? "archived" : "active" }))) reload();
  };
  const decide = async (r: Redemption, to: "fulfil" | "reject") => {
    const note = window.prompt(to === "fulfil" ? "Note for the user (optional):" : "Why is it rejected? (the user sees it; the points come back)");
    // Cancel decides nothing: a decided redemption cannot be changed again.
    if (note === null || (to === "reject" && !note.trim())) return;
    if (await action.run(() => api("POST", `${base}/redemptions/${r.id}/${to}`, note ? { note } : {}))) reload();
  };
  const setRanking = async (ranking: string) => {
    if (await action.run(() => api("PATCH", base, { leaderboard_ranking: ranking }))) props.ctx.reloadCampaign();
  };
  // Closing stores the tree first and then publishes its root; when publishing fails the epoch stays closed and is
  // published again from its row. Either way the list is read again.
  const [epochDone, setEpochDone] = useState<string | null>(null);
  const closeEpoch = async () => {
    if (!window.confirm("Close the open epoch? Its claims become one Merkle tree whose root is published on chain; later redemptions go to a new epoch."))
      return;
    setEpochDone(null);
    const epoch = await epochAction.run(() => api<ClaimEpoch>("POST", `${base}/claim-epochs/close`));
    if (epoch) setEpochDone(`Epoch ${epoch.epoch} published: root ${shorten(epoch.root ?? "", 10)}.`);
    epochs.reload();
  };
  const publishEpoch = async (e: ClaimEpoch) => {
    setEpochDone(null);
    const published = await epochAction.run(() => api<ClaimEpoch>("POST", `${base}/claim-epochs/${e.epoch}/publish`));
    if (published) setEpochDone(`Epoch ${published.epoch} published: root ${shorten(published.root ?? "", 10)}.`);
    epochs.reload();
  };
  const contract = epochs.data?.contract ?? null;

  return (
    <>
      <Card title="Rewards" testId="rewards">
        <p className="muted">What points buy. A redemption spends the price from the user's balance once; stock and per-user limits are never exceeded.</p>
        <Field label="The leaderboard ranks by">
          <select name="leaderboard-ranking" value={c.leaderboard_ranking} disabled={readOnly || action.busy} onChange={(e) => setRanking(e.target.value)}>
            <option value="earned">points earned (total)</option>
            <option value="balance">balance (total − spent)</option>
          </select>
        </Field>
        <DataTable columns={["Name", "Kind", "Price", "Stock", "Codes left", "Status", ""]} testId="reward-list">
          {(rewards.data?.rewards ?? []).map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{r.kind === "token-claim" ? `token-claim (${r.claim_method})` : r.kind}</td>
              <td>
                {r.price} {r.currency}
              </td>
              <td>{r.stock ?? "unlimited"}</td>
              <td>{r.codes_available ?? "—"}</td>
              <td>{r.status === "active" ? <Badge tone="green">active</Badge> : <Badge>archived</Badge>}</td>
              <td>
                <button type="button" className="btn" disabled={readOnly || action.busy} onClick={() => archive(r)}>
                  {r.status === "active" ? "Archive" : "Restore"}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
        <form className="form-row" onSubmit={create}>
          <Field label="Name">
            <input name="reward-name" value={form.name} onChange={set("name")} required />
          </Field>
          <Field label="Kind">
            <select name="reward-kind" value={form.kind} onChange={set("kind")}>
              <option value="voucher">voucher</option>
              <option value="manual">manual</option>
              <option value="token-claim">token-claim</option>
            </select>
          </Field>
          <Field label="Currency">
            <select name="reward-currency" value={form.currency} onChange={set("currency")}>
              {Object.entries(c.currencies).map(([key, name]) => (
                <option key={key} value={key}>
                  {name} ({key})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Price">
            <input name="reward-price" value={form.price} onChange={set("price")} required />
          </Field>
          <Field label="Stock">
            <input name="reward-stock" value={form.stock} onChange={set("stock")} placeholder="unlimited" />
          </Field>
          {form.kind === "token-claim" && (
            <Field label="Token amount (base units)">
              <input name="reward-token-amount" value={form.token_amount} onChange={set("token_amount")} required />
            </Field>
          )}
          <button type="submit" className="btn btn-primary" disabled={action.busy || readOnly}>
            Add reward
          </button>
        </form>
        <form className="form-row" onSubmit={upload}>
          <Field label="Voucher reward">
            <select name="codes-reward" value={codesFor} onChange={(e) => setCodesFor(e.target.value)} required>
              <option value="">choose…</option>
              {(rewards.data?.rewards ?? [])
                .filter((r) => r.kind === "voucher")
                .map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
            </select>
          </Field>
          <Field label="Codes (one per line)" wide>
            <textarea name="codes" value={codes} onChange={(e) => setCodes(e.target.value)} rows={3} required />
          </Field>
          <button type="submit" className="btn" disabled={action.busy || readOnly}>
            Upload codes
          </button>
        </form>
        <Notice kind="error">{action.error ?? rewards.error}</Notice>
        <Notice kind="success">{done}</Notice>
      </Card>
      <Card title="Redemptions" testId="redemptions">
        <Field label="Show">
          <select name="redemption-status" value={shown} onChange={(e) => setShown(e.target.value)}>
            <option value="">all (newest 500)</option>
            <option value="pending">pending (to fulfil or reject)</option>
            <option value="claimable">claimable</option>
            <option value="delivered">delivered</option>
            <option value="fulfilled">fulfilled</option>
            <option value="rejected">rejected</option>
          </select>
        </Field>
        <Notice kind="error">{redemptions.error}</Notice>
        <DataTable columns={["When", "User", "Reward", "Price", "Balance before → after", "Status", ""]} testId="redemption-list">
          {(redemptions.data?.redemptions ?? []).map((r) => (
            <tr key={r.id}>
              <td>{formatTime(r.created_at)}</td>
              <td>
                <code>{shorten(r.user_id, 8)}</code>
              </td>
              <td>{r.reward_name}</td>
              <td>
                {r.price} {r.currency}
              </td>
              <td>
                {r.balance_before} → {r.balance_after}
              </td>
              <td>
                <Badge tone={r.status === "rejected" ? "red" : r.status === "pending" ? "amber" : "green"}>{r.status}</Badge> {r.status_note ?? ""}
              </td>
              <td>
                {r.status === "pending" && (
                  <>
                    <button type="button" className="btn" disabled={readOnly || action.busy} onClick={() => decide(r, "fulfil")}>
                      Fulfil
                    </button>{" "}
                    <button type="button" className="btn" disabled={readOnly || action.busy} onClick={() => decide(r, "reject")}>
                      Reject
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </Card>
      <Card
        title="Token-claim epochs"
        testId="claim-epochs"
        actions={
          <button type="button" className="btn" disabled={readOnly || epochAction.busy || contract === null} onClick={closeEpoch}>
            Close and publish the open epoch
          </button>
        }
      >
        {epochs.data && <p className="muted">Contract {contract ?? "not configured (CLAIMS_* settings)"}</p>}
        <Notice kind="error">{epochAction.error ?? epochs.error}</Notice>
        <Notice kind="success">{epochDone}</Notice>
        <DataTable columns={["Epoch", "Status", "Claims", "Tokens", "Root", "Transaction", ""]} testId="epoch-list">
          {(epochs.data?.epochs ?? []).map((e) => (
            <tr key={e.epoch}>
              <td>{e.epoch}</td>
              <td>{e.status}</td>
              <td>{e.redemptions}</td>
              <td>{e.token_amount}</td>
              <td>
                <code>{e.root ? shorten(e.root, 10) : "—"}</code>
              </td>
              <td>
                <code>{e.tx_hash ? shorten(e.tx_hash, 10) : "—"}</code>
              </td>
              <td>
                {e.status === "closed" && (
                  <button type="button" className="btn" disabled={readOnly || epochAction.busy || contract === null} onClick={() => publishEpoch(e)}>
                    Publish
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </Card>
    </>
  );
}

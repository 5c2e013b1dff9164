// Campaign tab "CSV import": upload a file of events, follow the import and read each bad row.
import { useRef, useState } from "react";
import { api, newIdempotencyKey, upload } from "../api";
import type { Answer, CsvImport, CsvRowError } from "../types";
import { Badge, Card, DataTable, formatTime, Notice, Progress, useAction, useLoad, usePoll } from "../ui";
import type { CampaignContext } from "./campaign-context";

const TONE = { validating: "amber", publishing: "amber", done: "green", rejected: "red", failed: "red" } as const;

function ImportProgress({ item }: { item: CsvImport }) {
  if (item.status === "validating") return <Progress value={0} label={`checking rows: ${item.rows_read} read, ${item.rows_invalid} bad`} />;
  if (item.status === "publishing")
    return <Progress value={item.rows_valid ? item.rows_published / item.rows_valid : 0} label={`${item.rows_published} of ${item.rows_valid} published`} />;
  return (
    <span className="small">
      {item.rows_read} rows: {item.rows_valid} good, {item.rows_invalid} bad, <strong>{item.rows_published} imported</strong>
    </span>
  );
}

function RowErrors({ rows, truncated }: { rows: CsvRowError[]; truncated?: boolean }) {
  if (rows.length === 0) return null;
  return (
    <DataTable columns={["Line", "Problem", "Code"]} note={truncated && "More bad rows were found; only the first ones are listed."} testId="row-errors">
      {rows.flatMap((r) =>
        r.errors.map((e) => (
          <tr key={`${r.line}:${e.extensions.code}:${e.message}`}>
            <td>{r.line}</td>
            <td>{e.message}</td>
            <td>
              <code>{e.extensions.code}</code>
            </td>
          </tr>
        )),
      )}
    </DataTable>
  );
}

/** Upload a CSV of raw events through the ingest pipeline; watch progress and row errors. */
export function ImportsTab({ ctx }: { ctx: CampaignContext }) {
  const base = `/api/campaigns/${ctx.campaign.id}/csv-imports`;
  const imports = useLoad(() => api<Answer<"/api/campaigns/{campaign_id}/csv-imports", "get">>("GET", base), [base]);
  const [mode, setMode] = useState<"all-or-nothing" | "accept-valid">("all-or-nothing");
  const [file, setFile] = useState<File | null>(null);
  // One key per chosen file: sending it again after a failure publishes only the rows that did not go out.
  const [uploadKey, setUploadKey] = useState<string>("");
  const [sent, setSent] = useState<number | null>(null);
  const [result, setResult] = useState<{ import: CsvImport; invalid_rows: CsvRowError[]; invalid_rows_truncated: boolean } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const action = useAction();
  const running = action.busy || (imports.data?.csv_imports.some((i) => i.status === "validating" || i.status === "publishing") ?? false);
  // reload resolves with its answer, so usePoll skips a tick while the list asked for before is still on its way.
  usePoll(imports.reload, 1000, running);
  const type = ctx.eventTypes.find((t) => !t.retired_at);
  const example = `account_id,identity_type,amount,reg_event_id\n0x52908400098527886E0F7030069857D2E4169EE7,EVM_ADDRESS,125.5,${type?.reg_event_id ?? "<reg_event_id>"}\nalice@example.com,EMAIL,3,${type?.reg_event_id ?? "<reg_event_id>"}`;

  const start = async () => {
    if (!file) return;
    setResult(null);
    setSent(0);
    const query = new URLSearchParams({ mode, file_name: file.name.slice(0, 200) });
    const res = await action.run(() =>
      upload<typeof result>(`${base}?${query}`, file, "text/csv", (s, total) => setSent(total ? s / total : 0), { "idempotency-key": uploadKey }),
    );
    setSent(null);
    imports.reload();
    // After a failure the file stays chosen, with its key: Upload again, and rows that already went out count once.
    if (!res) return;
    setResult(res);
    if (fileInput.current) fileInput.current.value = "";
    setFile(null);
  };

  return (
    <>
      <Card title="Upload events from a CSV file">
        <p className="muted">
          The first row names the columns; every row is one raw event, checked exactly like the API. Line numbers count the header as line 1.
        </p>
        <pre className="code small">{example}</pre>
        <div className="form-row">
          <input
            ref={fileInput}
            type="file"
            accept=".csv,text/csv"
            name="csv-file"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setUploadKey(newIdempotencyKey());
            }}
          />
          <label className="inline">
            <input type="radio" checked={mode === "all-or-nothing"} onChange={() => setMode("all-or-nothing")} /> all or nothing (a bad row stops the whole
            file)
          </label>
          <label className="inline">
            <input type="radio" checked={mode === "accept-valid"} onChange={() => setMode("accept-valid")} /> import the good rows, report the bad ones
          </label>
        </div>
        <button type="button" className="btn btn-primary" onClick={start} disabled={!file || action.busy || Boolean(ctx.campaign.archived_at)}>
          Upload
        </button>
        {sent !== null && <Progress value={sent} label={sent < 1 ? `uploading ${Math.round(sent * 100)}%` : "uploaded, checking rows…"} />}
        <Notice kind="error">{action.error ?? imports.error}</Notice>
        {result && (
          <div className="stack" data-testid="import-result">
            {result.import.status === "done" ? (
              <Notice kind={result.import.rows_invalid ? "warn" : "success"}>
                Imported {result.import.rows_published} of {result.import.rows_read} rows.
                {result.import.rows_invalid ? ` ${result.import.rows_invalid} bad rows were skipped:` : ""}
              </Notice>
            ) : (
              <Notice kind="error">
                Nothing was imported: {result.import.rows_invalid} of {result.import.rows_read} rows are bad. Fix them, or upload again choosing to import the
                good rows.
              </Notice>
            )}
            <RowErrors rows={result.invalid_rows} truncated={result.invalid_rows_truncated} />
          </div>
        )}
      </Card>
      <Card title="Recent imports">
        <DataTable columns={["File", "Started", "Mode", "Status", "Progress"]} note={imports.data?.csv_imports.length === 0 && "No imports yet."}>
          {imports.data?.csv_imports.map((i) => (
            <tr key={i.import_id}>
              <td>{i.file_name ?? <span className="muted">(unnamed)</span>}</td>
              <td>{formatTime(i.created_at)}</td>
              <td>{i.mode}</td>
              <td>
                <Badge tone={TONE[i.status]}>{i.status}</Badge>
                {i.error && <div className="small muted">{i.error}</div>}
              </td>
              <td className="wide-cell">
                <ImportProgress item={i} />
              </td>
            </tr>
          ))}
        </DataTable>
      </Card>
    </>
  );
}

// A CSV list upload (exclusions, adjustments): file, mode, result and the bad rows with their lines.
import { useRef, useState } from "react";
import { ApiError, newIdempotencyKey, upload } from "../api";
import type { ListRowError } from "../types";
import { DataTable, Notice, useAction } from "../ui";

/** What a list upload answers: its status, counts and bad rows. */
export interface ListUploadResult {
  status: "done" | "rejected";
  rows_read: number;
  rows_invalid: number;
  created: number;
  invalid_rows: ListRowError[];
  invalid_rows_truncated: boolean;
}

/**
 * Choose a CSV list, upload it all-or-nothing or keeping the good rows, and read what happened. With
 * `keyed`, each chosen file gets an Idempotency-Key: after an upload whose answer never came, the file
 * stays chosen with its key, and Upload again is answered by what the first upload made.
 */
export function ListUpload(props: {
  path: string;
  query?: Record<string, string>;
  disabled?: boolean;
  what: string;
  /** Called when the upload may have changed the list: applied (all of it or its good rows), or never answered. */
  onDone: () => void;
  name: string;
  keyed?: boolean;
}) {
  const [mode, setMode] = useState<"all-or-nothing" | "accept-valid">("all-or-nothing");
  const [file, setFile] = useState<File | null>(null);
  const [uploadKey, setUploadKey] = useState("");
  const [result, setResult] = useState<ListUploadResult | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const action = useAction();

  const start = async () => {
    if (!file) return;
    setResult(null);
    const query = new URLSearchParams({ mode, ...(props.query ?? {}) });
    const headers: Record<string, string> = props.keyed ? { "idempotency-key": uploadKey } : {};
    let unanswered = false;
    const res = await action.run(() =>
      upload<ListUploadResult>(`${props.path}?${query}`, file, "text/csv", () => undefined, headers).catch((err) => {
        unanswered = !(err instanceof ApiError && err.status > 0 && err.status < 500);
        throw err;
      }),
    );
    // The list is read again only when the upload may have changed it: applied, whole or keeping the good rows, or
    // never answered (it may have gone through). A refusal, of the whole file or of a row in all-or-nothing, changed
    // nothing, and the list stays as the operator was reading it.
    if (res?.status === "done" || unanswered) props.onDone();
    // After a failure the file stays chosen (with its key), so Upload sends it again.
    if (!res) return;
    setResult(res);
    if (input.current) input.current.value = "";
    setFile(null);
  };

  return (
    <div className="stack">
      <div className="form-row">
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          name={props.name}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setUploadKey(newIdempotencyKey());
          }}
        />
        <label className="inline">
          <input type="radio" checked={mode === "all-or-nothing"} onChange={() => setMode("all-or-nothing")} /> all or nothing
        </label>
        <label className="inline">
          <input type="radio" checked={mode === "accept-valid"} onChange={() => setMode("accept-valid")} /> keep the good rows, report the bad ones
        </label>
        <button type="button" className="btn" onClick={start} disabled={!file || action.busy || props.disabled}>
          Upload
        </button>
      </div>
      <Notice kind="error">{action.error}</Notice>
      {result && (
        <div className="stack" data-testid={`${props.name}-result`}>
          {result.status === "done" ? (
            <Notice kind={result.rows_invalid ? "warn" : "success"}>
              {result.created} {props.what} from {result.rows_read} rows.{result.rows_invalid ? ` ${result.rows_invalid} bad rows were skipped:` : ""}
            </Notice>
          ) : (
            <Notice kind="error">
              Nothing was changed: {result.rows_invalid} of {result.rows_read} rows are bad.
            </Notice>
          )}
          {result.invalid_rows.length > 0 && (
            <DataTable
              columns={["Line", "Problem", "Code"]}
              note={result.invalid_rows_truncated && "Only the first bad rows are listed."}
              testId={`${props.name}-errors`}
            >
              {result.invalid_rows.map((r) => (
                <tr key={`${r.line}:${r.code}`}>
                  <td>{r.line}</td>
                  <td>{r.message}</td>
                  <td>
                    <code>{r.code}</code>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
      )}
    </div>
  );
}

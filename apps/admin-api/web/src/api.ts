// The admin API client: JSON requests and uploads with the operator's session token, errors as ApiError.
/** An error answer of the admin API: `{ error: { code, message } }` with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = "pointwise-session";

/** The session token of the signed-in operator (kept for the browser tab only). */
export function sessionToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** Stores or forgets the session token. */
export function setSessionToken(token: string | null): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** A 401 means the session ended (expired, signed out elsewhere): forget it and go back to sign in. */
function endSessionOn(status: number, path: string): void {
  if (status === 401 && path !== "/api/auth/login") {
    setSessionToken(null);
    window.location.hash = "#/login";
  }
}

async function errorOf(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  return new ApiError(res.status, body?.error?.code ?? "http-error", body?.error?.message ?? `request failed with status ${res.status}`);
}

/**
 * A new random Idempotency-Key in the form of a UUID v4. crypto.randomUUID exists only in secure
 * contexts (https, localhost), and a dashboard on a plain-http address still needs keys.
 */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Calls the admin API with the session; an expired session sends the operator back to sign in. `headers` go with it. */
export async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const token = sessionToken();
  const res = await fetch(path, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch(() => {
    throw new ApiError(0, "network-error", "the request could not reach the server; try again");
  });
  endSessionOn(res.status, path);
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as T;
}

/**
 * Uploads a file as the raw request body, reporting how many bytes were sent so far; `headers` go with it. An expired
 * session sends the operator back to sign in, as `api` does.
 */
export function upload<T>(
  path: string,
  file: Blob,
  contentType: string,
  onProgress: (sent: number, total: number) => void,
  headers: Record<string, string> = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("content-type", contentType);
    const token = sessionToken();
    if (token) xhr.setRequestHeader("authorization", `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    xhr.onerror = () => reject(new ApiError(0, "network-error", "the upload could not reach the server"));
    xhr.onload = () => {
      let body: { error?: { code?: string; message?: string } } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      endSessionOn(xhr.status, path);
      reject(new ApiError(xhr.status, body?.error?.code ?? "http-error", body?.error?.message ?? `upload failed with status ${xhr.status}`));
    };
    xhr.send(file);
  });
}

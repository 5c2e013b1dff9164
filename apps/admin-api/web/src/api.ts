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

async function errorOf(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  return new ApiError(res.status, body?.error?.code ?? "http-error", body?.error?.message ?? `request failed with status ${res.status}`);
}

/** Calls the admin API with the session; an expired session sends the operator back to sign in. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = sessionToken();
  const res = await fetch(path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status === 401 && path !== "/api/auth/login") {
    setSessionToken(null);
    window.location.hash = "#/login";
  }
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as T;
}

/** Uploads a file as the raw request body, reporting how many bytes were sent so far; `headers` go with it. */
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
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body?.error?.code ?? "http-error", body?.error?.message ?? `upload failed with status ${xhr.status}`));
    };
    xhr.send(file);
  });
}

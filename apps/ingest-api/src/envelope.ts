/** One error of the ingest envelope. */
export interface EnvelopeError {
  message: string;
  extensions: { code: string };
}

/** The failure body: `data` is null and `errors` says why (the HTTP status is still 200). */
export function failure(...errors: { message: string; code: string }[]): { data: null; errors: EnvelopeError[] } {
  return { data: null, errors: errors.map((e) => ({ message: e.message, extensions: { code: e.code } })) };
}

/** The success body. */
export function success<T>(data: T): { data: T } {
  return { data };
}

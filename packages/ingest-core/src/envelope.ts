/** One problem: what the client reads and the stable code for it. */
export interface Problem {
  message: string;
  code: string;
}

/** One error of the ingest envelope. */
export interface EnvelopeError {
  message: string;
  extensions: { code: string };
}

/** The failure body: `data` is null and `errors` says why (the HTTP status is still 200). */
export interface FailureBody {
  data: null;
  errors: EnvelopeError[];
}

/** Turns problems into envelope errors (only message and code reach the client). */
export function envelopeErrors(problems: readonly Problem[]): EnvelopeError[] {
  return problems.map((p) => ({ message: p.message, extensions: { code: p.code } }));
}

/** The failure body for one or more problems. */
export function failure(...problems: Problem[]): FailureBody {
  return { data: null, errors: envelopeErrors(problems) };
}

/** The success body. */
export function success<T>(data: T): { data: T } {
  return { data };
}

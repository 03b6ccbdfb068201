// Expected failures are plain values, not exceptions: Espruino's Error subclasses lose their
// message and `instanceof`, and a value can be returned through every layer unchanged.

export interface Failure {
  status: number;
  code: string;
  message: string;
  /** Only when exactly one input key is at fault. */
  field?: string;
  /** Seconds, for serviceBusy. */
  retryAfter?: number;
}

export function failure(status: number, code: string, message: string, field?: string): Failure {
  const f: Failure = { status, code, message };
  if (field) f.field = field;
  return f;
}

export function invalid(field: string, message: string): Failure {
  return failure(422, "validationFailed", message, field);
}

export function isFailure(v: unknown): v is Failure {
  return typeof v === "object" && v !== null && typeof (v as Failure).code === "string" &&
    typeof (v as Failure).status === "number";
}

/** The error body of every non-2xx answer. */
export function errorBody(f: Failure): { error: { code: string; message: string; field?: string } } {
  const e: { code: string; message: string; field?: string } = { code: f.code, message: f.message };
  if (f.field) e.field = f.field;
  return { error: e };
}

// Number checks shared by every validator.

export function isInteger(v: unknown): v is number {
  return typeof v === "number" && isFinite(v) && Math.floor(v) === v;
}

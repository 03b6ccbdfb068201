// The draw list of a checked payload compiled in place (see check.ts): a module of its own, so
// that it is loaded only for payloads that draw, and never beside the validation module.
import type { Failure } from "../core/failure";
import { isFailure } from "../core/failure";
import { compileDraw } from "./draw";
import type { StoredPayload } from "./stored";

const compileStoredDraw = (p: StoredPayload): Failure | undefined => {
  const program = compileDraw(p.d);
  if (isFailure(program)) return program;
  p.d = program;
  return undefined;
};
export default compileStoredDraw;

// Request bodies checked as payloads, for the push and notification handlers: every body through
// payload/validate first, then the draw lists through payload/compile-draw. Each module is
// loaded inside its own function, so it is released before the next one loads: the peak of an
// 8 KB draw payload is its parsed form and one of them, not both.
import type { Failure } from "../core/failure";
import { isFailure } from "../core/failure";
import { loadModule } from "../platform/modules";
import type { StoredPayload, ValidatePayload } from "./stored";
import type CompileDraw from "./compile-draw.mod";

function validateAll(bodies: unknown[], notification: boolean): StoredPayload[] | Failure {
  const validate = loadModule<ValidatePayload>("payload/validate");
  const out: StoredPayload[] = [];
  for (let i = 0; i < bodies.length; i++) {
    const p = validate(bodies[i], notification);
    if (isFailure(p)) return p;
    out.push(p);
  }
  return out;
}

function compileAll(stored: StoredPayload[]): Failure | undefined {
  let compile: typeof CompileDraw | null = null;
  for (let i = 0; i < stored.length; i++) {
    if (!Array.isArray(stored[i].d)) continue;
    if (!compile) compile = loadModule<typeof CompileDraw>("payload/compile-draw");
    const f = compile(stored[i]);
    if (f) return f;
  }
  return undefined;
}

/** The bodies as stored, or the first failure (nothing is stored then). */
export function checkPayloads(bodies: unknown[], notification: boolean): StoredPayload[] | Failure {
  const stored = validateAll(bodies, notification);
  if (isFailure(stored)) return stored;
  return compileAll(stored) || stored;
}

// Whether a file may be stored under a name in a folder (files/names.ts: checkName, then
// nameClash), as a module: POST /api/v1/files and a restore load it as each file begins and drop
// it after, so that it is not held while files stream in.
import type { Failure } from "../core/failure";
import { checkName, nameClash } from "./names";

function nameCheck(dir: string, name: string): Failure | null {
  return checkName(dir, name) || nameClash(dir, name);
}
export default nameCheck;

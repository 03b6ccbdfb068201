// PUT /api/v1/system without its answer (put.ts): loaded by the route's module (put.mod.ts), which
// answers with the configuration, and by a restore for its system entries
// (backup/restore-apply.mod.ts), which needs no answer.
import { putSystem } from "./put";

export default putSystem;

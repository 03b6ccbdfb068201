// PATCH /api/v1/settings without its answer (patch.ts): loaded by the route's module
// (patch.mod.ts), which answers with the settings, and by a restore for its settings entries
// (backup/restore-apply.mod.ts), which needs no answer.
import type { App } from "../app";
import type { Failure } from "../core/failure";
import { patchSettings } from "./patch";

const applySettings = (req: { body: unknown }, app: App): Failure | null => patchSettings(app.settings, req);
export default applySettings;

// POST /api/v1/device/factory-reset: answers, then wipes what the user stored and restarts in
// setup mode. What came with the firmware (bundle, modules, page, fonts) stays.
import type { Handler } from "../http/types";
import { okThen } from "../http/types";
import { isFirmwareFile } from "../version";
import { flash } from "../platform/flash";

const factoryReset: Handler = (req, app) => okThen(() => {
  for (const name of flash.list()) if (!isFirmwareFile(name)) flash.erase(name);
  app.restart();
});
export default factoryReset;

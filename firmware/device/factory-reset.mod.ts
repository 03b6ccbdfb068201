// POST /api/v1/device/factory-reset: answers, then wipes what the user stored and restarts in
// setup mode. What came with the firmware (bundle, modules, page, fonts) stays.
import type { Handler } from "../http/types";
import { okThen } from "../http/types";
import { isFirmwareFile } from "../version";

const factoryReset: Handler = (req, app) => okThen(() => {
  const Storage = require("Storage");
  for (const name of Storage.list()) if (!isFirmwareFile(name)) Storage.erase(name);
  app.restart();
});
export default factoryReset;

// Another set of apps takes turns from now on (the setup screen instead of the loop).
import type { AppLoop } from "./loop";
import type { LoopApp } from "./types";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";
import { keepOnly } from "./prepare";

const replaceApps = (loop: AppLoop, apps: LoopApp[]): void => {
  keepOnly(loop, null, null);
  loop.apps = apps;
  loop.index = 0;
  loop.shownAt = NaN;
  loop.soon = false;
  loadModule<typeof RefreshLoop>("apps/refresh")(loop);
};
export default replaceApps;

// Apps by name, among every app the loop knows.
import type { AppLoop } from "./loop";
import type { LoopApp } from "./types";

/** The known app of that name, present or not, or null. */
export function findApp(loop: AppLoop, name: string): LoopApp | null {
  const apps = loop.apps;
  for (let i = 0; i < apps.length; i++) if (apps[i].name === name) return apps[i];
  return null;
}

// Facts the build writes in: package.json's version, and the Storage files that come with the
// firmware (the web page, the fonts), which a factory reset must keep.
import { findText } from "./core/text";

declare const PIXLOOP_VERSION: string;
declare const PIXLOOP_FILES: string;
export const VERSION: string = PIXLOOP_VERSION;

/** Whether a Storage file was put there with the firmware rather than by the user. */
export function isFirmwareFile(name: string): boolean {
  // The interpreter's own files (".bootcde" holds this firmware) start with a dot.
  return name.charAt(0) === "." || findText("," + PIXLOOP_FILES + ",", "," + name + ",") >= 0;
}

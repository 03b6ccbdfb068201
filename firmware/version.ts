// Facts the build writes in: package.json's version, and the Storage files that come with the
// firmware (the web page, the fonts), which a factory reset must keep.
import { findText } from "./core/text";

declare const PIXLOOP_VERSION: string;
declare const PIXLOOP_FILES: string;
export const VERSION: string = PIXLOOP_VERSION;

/** Whether a Storage file was put there with the firmware rather than by the user. */
export function isFirmwareFile(name: string): boolean {
  // The interpreter's own files start with a dot (".bootcde", the boot stage; ".slots.0", the
  // slot record); the two sets of firmware files are "a/..." and "b/..." (firmware/update).
  return name.charAt(0) === "." || (name.charAt(1) === "/" && (name.charAt(0) === "a" || name.charAt(0) === "b")) ||
    findText("," + PIXLOOP_FILES + ",", "," + name + ",") >= 0;
}

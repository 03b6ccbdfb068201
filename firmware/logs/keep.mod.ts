// Keeps one logged line, with its time, in the ring (./keep.ts). A module: lines are logged
// rarely, and its code then costs the resident firmware nothing between them.
import type { LogRing } from "./log";
import { keepLine, stampLine } from "./keep";

function keepStamped(ring: LogRing, text: string): void {
  keepLine(ring, stampLine(ring) + text);
}
export default keepStamped;

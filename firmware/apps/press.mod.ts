// A press of the left or right button (buttons.ts): one page forward or back, with the transition.
import type { AppLoop } from "./loop";
import { stepLoop } from "./moves";
import { nowMs } from "../platform/system";

const press = (loop: AppLoop, delta: number): void => stepLoop(loop, delta, nowMs(), false);
export default press;

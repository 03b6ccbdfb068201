// The loop's pages in memory after a frame that landed a page or found the change near (see
// prepare.ts); loaded by AppLoop.later() and dropped once it ran.
import { prepareLoop } from "./prepare";

export default prepareLoop;

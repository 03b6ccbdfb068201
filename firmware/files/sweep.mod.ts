// Clearing what uploads and restores cut short by a restart left behind (files/store.ts, sweep),
// as a module: run as an upload begins and as a restore's files end, and dropped after.
import { sweep } from "./store";

export default sweep;

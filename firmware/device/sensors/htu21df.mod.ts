// The driver module of the TE HTU21D(F) (see htu21df.ts).
import type { SensorDriver } from "./types";
import { probeHtu21df, readHtu21df } from "./htu21df";

const htu21df: SensorDriver = { probe: probeHtu21df, read: readHtu21df };
export default htu21df;

// The driver module of the Sensirion SHT31 (see sht31.ts).
import type { SensorDriver } from "./types";
import { probeSht31, readSht31 } from "./sht31";

const sht31: SensorDriver = { probe: probeSht31, read: readSht31 };
export default sht31;

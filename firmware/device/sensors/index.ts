// Environment sensor on the I2C bus: detected once at boot (sensors/detect.ts, run by the boot
// module), sampled on the 2 s runtime tick. Only the sampler's data stays in memory: the chip's
// driver is a module loaded for each reading and dropped after it, so at most one driver is ever
// in memory, and none between readings.
import type { EnvSampler, SensorDriver } from "./types";
import { loadModule } from "../../platform/modules";

export type { EnvSampler, EnvSlot, SensorEntry } from "./types";

/** One read; a bus error (or a driver that cannot be loaded) keeps the previous values. */
export function sampleEnv(env: EnvSampler): void {
  try {
    if (loadModule<SensorDriver>(env.sensor.driver).read(env.bus, env.addr, env)) env.valid = true;
  } catch (e) {
    // keep the last good values
  }
}

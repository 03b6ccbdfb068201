// What the device works out once at boot: why it started, who it is (uid and hostname from the
// MAC) and which environment sensor is fitted (none when either I2C pin is -1). Run by
// Runtime.begin, then dropped.
import type { Runtime } from "./runtime";
import type { SystemConfig } from "../system/schema";
import { takeBootMark } from "../platform/bootmark";
import { macAddress } from "../platform/wifi";
import { openI2c } from "../platform/io";
import { derivedHostname, uidFromMac } from "./identity";
import { detectSensor } from "./sensors/detect";

function bootDevice(rt: Runtime, config: SystemConfig): void {
  rt.resetReason = takeBootMark();
  rt.uid = uidFromMac(macAddress());
  rt.hostname = config.hostname || derivedHostname(rt.uid);
  if (config.pinI2cSda >= 0 && config.pinI2cScl >= 0) {
    try {
      const env = detectSensor(openI2c(config.pinI2cSda, config.pinI2cScl));
      if (env) rt.env = env;
    } catch (e) {
      // No sensor answers: the clock runs without one.
    }
  }
}
export default bootDevice;

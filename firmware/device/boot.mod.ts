// What the device works out once at boot: why it started, who it is (uid and hostname from the
// MAC; the radio is given the hostname when it is to join a network) and which environment sensor
// is fitted (none when either I2C pin is -1). Run by the Runtime's constructor, then dropped.
import type { Runtime } from "./runtime";
import type { SystemConfig } from "../system/schema";
import { takeBootMark } from "../platform/bootmark";
import { macAddress, setHostname } from "../platform/wifi";
import { openI2c } from "../platform/io";
import { derivedHostname, uidFromMac } from "./identity";
import { detectSensor } from "./sensors/detect";

function bootDevice(rt: Runtime, config: SystemConfig): void {
  rt.resetReason = takeBootMark();
  rt.uid = uidFromMac(macAddress());
  rt.hostname = config.hostname || derivedHostname(rt.uid);
  // Station mode only (net/mode.ts), before it joins: the setup access point goes without.
  if (config.wifiSsid) setHostname(rt.hostname);
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

// Network time for the interpreter's clock. The wall clock itself is nowMs() in ./system.

/**
 * Points the chip's SNTP client at a server. The offset stays 0: the clock keeps UTC and local
 * time comes from the TZ setting. Builds without the Wi-Fi module (the simulator, whose host
 * clock is already right) have nothing to start.
 */
export function startNtp(server: string): void {
  try {
    require("Wifi").setSNTP(server, 0);
  } catch (e) {
    // No SNTP on this build.
  }
}

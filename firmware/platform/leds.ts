// The WS2812 chain on the matrix pin.

/** Sends `data` (3 bytes per LED, in chain order) out on `pin`; blocks while it goes out. */
export function writeLeds(pin: number, data: Uint8Array): void {
  try {
    require("neopixel").write(pin, data);
  } catch (e) {
    // A build without the neopixel driver (the Linux interpreter) has nothing to light; the
    // frame loop must keep running there.
  }
}

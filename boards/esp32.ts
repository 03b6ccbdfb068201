// Ulanzi TC001 and other plain ESP32 clocks (no PSRAM).
import type { Board, ChipRules } from "./board";

/** Read by the firmware from its Storage file (build/chips.mjs), not held in the bundle. */
export const chip: ChipRules = {
  label: "ESP32",
  max: 39,
  missing: [],
  inputOnly: [[34, 39]],
  reserved: [{ lo: 6, hi: 11, why: "the SPI flash" }],
  adc1: [[32, 39]],
  strapping: [[0, 0], [2, 2], [5, 5], [12, 12], [15, 15]],
  rtc: [[0, 0], [2, 2], [4, 4], [12, 15], [25, 27], [32, 39]],
  matrix: [2, 4, 5, 13, 14, 15, 16, 18, 21, 25, 26, 27, 32, 33],
  // The Ulanzi TC001 wiring.
  defaults: {
    pinMatrix: 32, pinBtnLeft: 26, pinBtnSelect: 27, pinBtnRight: 14,
    pinBattery: 34, pinLdr: 35, pinBuzzer: 15, pinI2cSda: 21, pinI2cScl: 22,
    pinModuleRx: 23, pinModuleTx: 18, pinI2sBclk: -1, pinI2sLrclk: -1, pinI2sDout: -1,
    pinI2sMclk: -1, pinAmpEnable: -1,
  },
};

const board: Board = {
  id: "esp32",
  soc: "esp32",
  updateImage: "pixloop-esp32.bin",
  fitted: { psram: "none", psramBytes: 0, usbSense: false },
};
export default board;

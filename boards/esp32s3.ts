// Generic ESP32-S3 build with octal PSRAM: analog inputs on ADC1, I2S amplifier fitted.
import type { Board, ChipRules } from "./board";

/** Read by the firmware from its Storage file (build/chips.mjs), not held in the bundle. */
export const chip: ChipRules = {
  label: "ESP32-S3",
  max: 48,
  missing: [[22, 25]],
  inputOnly: [],
  reserved: [
    { lo: 19, hi: 20, why: "the USB-JTAG interface" },
    { lo: 26, hi: 37, why: "the SPI flash and PSRAM" },
    { lo: 43, hi: 44, why: "the UART0 console" },
  ],
  adc1: [[1, 10]],
  strapping: [[0, 0], [3, 3], [45, 46]],
  rtc: [[0, 21]],
  matrix: [13, 14, 15, 16, 17, 18, 21, 38, 39, 40, 41, 42, 47],
  defaults: {
    pinMatrix: 21, pinBtnLeft: 11, pinBtnSelect: 12, pinBtnRight: 13,
    pinBattery: 1, pinLdr: 2, pinBuzzer: 7, pinI2cSda: 8, pinI2cScl: 9,
    pinModuleRx: 17, pinModuleTx: 18, pinI2sBclk: 5, pinI2sLrclk: 6, pinI2sDout: 4,
    pinI2sMclk: -1, pinAmpEnable: -1,
  },
};

const board: Board = {
  id: "esp32s3",
  soc: "esp32s3",
  updateImage: "pixloop-esp32s3-octal.bin",
  fitted: { psram: "octal", psramBytes: 8388608, usbSense: false },
};
export default board;

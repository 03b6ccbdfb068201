// The shape of a board file. Everything chip- or board-specific the firmware knows lives in
// one of these; pin validation and the capabilities `gpio` object are computed from it.

/** Inclusive GPIO range [lo, hi]. */
export type PinRange = [number, number];

export interface ReservedRange { lo: number; hi: number; why: string }

export interface PinMap {
  pinMatrix: number; pinBtnLeft: number; pinBtnSelect: number; pinBtnRight: number;
  pinBattery: number; pinLdr: number; pinBuzzer: number; pinI2cSda: number; pinI2cScl: number;
  pinModuleRx: number; pinModuleTx: number; pinI2sBclk: number; pinI2sLrclk: number;
  pinI2sDout: number; pinI2sMclk: number; pinAmpEnable: number;
}

/**
 * The board's pin tables, kept in a Storage file (build/chips.mjs) that pin validation, factory
 * configuration and the capabilities read when they run: the chip's rules and the board's
 * factory wiring.
 */
export interface ChipRules {
  /** Display name, also used in validation messages ("not a valid ESP32-S3 GPIO"). */
  label: string;
  max: number;
  missing: PinRange[];
  inputOnly: PinRange[];
  reserved: ReservedRange[];
  adc1: PinRange[];
  strapping: PinRange[];
  rtc: PinRange[];
  matrix: number[];
  /** The board's factory pin map. */
  defaults: PinMap;
}

/** What is physically on the board besides the chip (the pin map says where it is wired). */
export interface Fitted {
  /** External PSRAM and its kind; selects the s3 update image. */
  psram: "none" | "quad" | "octal";
  psramBytes: number;
  /** A power-supply sense line (reported as usbPower); none of the supported clocks has one. */
  usbSense: boolean;
}

export interface Board {
  /** Board id: the bundle is dist/<id>.js. */
  id: string;
  soc: "esp32" | "esp32s3";
  /** The file name POST /update accepts on this board. */
  updateImage: string;
  fitted: Fitted;
}

import { test } from "uvu";
import * as assert from "uvu/assert";
import esp32, { chip as esp32Chip } from "../../boards/esp32";
import esp32s3, { chip as esp32s3Chip } from "../../boards/esp32s3";
import type { Board, ChipRules, PinMap } from "../../boards/board";
import {
  validatePinMap, checkI2sSet, gpioCapabilities, isRtcPin, pinExists, isAdc1Pin,
} from "../../firmware/system/pins";
import { pinFields } from "../../firmware/system/schema";

function chipOf(board: Board): ChipRules {
  return board === esp32 ? esp32Chip : esp32s3Chip;
}

function map(board: Board, over: Partial<PinMap>): PinMap {
  return Object.assign({}, chipOf(board).defaults, over) as PinMap;
}

function pinError(board: Board, over: Partial<PinMap>): string | null {
  const f = validatePinMap(map(board, over), chipOf(board));
  if (!f) return null;
  assert.is(f.status, 400);
  assert.is(f.code, "invalidPinConfig");
  assert.is(f.field, undefined);
  return f.message;
}

const ESP32_DRIVERS = "2,4,5,13,14,15,16,18,21,25,26,27,32,33";
const S3_DRIVERS = "13,14,15,16,17,18,21,38,39,40,41,42,47";

test("pin fields: 16, in the documented order", () => {
  assert.equal(pinFields(), [
    "pinMatrix", "pinBtnLeft", "pinBtnSelect", "pinBtnRight", "pinBattery", "pinLdr", "pinBuzzer",
    "pinI2cSda", "pinI2cScl", "pinModuleRx", "pinModuleTx", "pinI2sBclk", "pinI2sLrclk",
    "pinI2sDout", "pinI2sMclk", "pinAmpEnable",
  ]);
});

test("factory maps of both chips are valid", () => {
  assert.is(validatePinMap(esp32Chip.defaults, esp32Chip), null);
  assert.is(validatePinMap(esp32s3Chip.defaults, esp32s3Chip), null);
  assert.is(checkI2sSet(esp32Chip.defaults), null);
  assert.is(checkI2sSet(esp32s3Chip.defaults), null);
});

test("rule 1: matrix pin must be on the driver list (ESP32)", () => {
  assert.is(pinError(esp32, { pinMatrix: 23, pinModuleRx: -1 }),
    "pinMatrix: unsupported pin (compiled drivers: " + ESP32_DRIVERS + ")");
  assert.is(pinError(esp32, { pinMatrix: -1 }), "pinMatrix: unsupported pin (compiled drivers: " + ESP32_DRIVERS + ")");
  assert.is(pinError(esp32, { pinMatrix: 33 }), null);
  assert.is(pinError(esp32, { pinMatrix: 2 }), null);
});

test("rule 1: matrix pin must be on the driver list (ESP32-S3)", () => {
  assert.is(pinError(esp32s3, { pinMatrix: 32 }), "pinMatrix: unsupported pin (compiled drivers: " + S3_DRIVERS + ")");
  assert.is(pinError(esp32s3, { pinMatrix: 32 }), "pinMatrix: unsupported pin (compiled drivers: " + S3_DRIVERS + ")");
  assert.is(pinError(esp32s3, { pinMatrix: 47 }), null);
});

test("rule 1 runs before every per-pin rule", () => {
  assert.is(pinError(esp32, { pinMatrix: 1, pinBtnLeft: 6 }),
    "pinMatrix: unsupported pin (compiled drivers: " + ESP32_DRIVERS + ")");
});

test("rule 2: pin must exist (ESP32)", () => {
  assert.is(pinError(esp32, { pinBtnLeft: 40 }), "pinBtnLeft: not a valid ESP32 GPIO (0-39, or -1 = disabled)");
  assert.is(pinError(esp32, { pinLdr: -2 }), "pinLdr: not a valid ESP32 GPIO (0-39, or -1 = disabled)");
  assert.is(pinError(esp32, { pinAmpEnable: 99 }), "pinAmpEnable: not a valid ESP32 GPIO (0-39, or -1 = disabled)");
});

test("rule 2: pin must exist (ESP32-S3, with the 22-25 hole)", () => {
  const msg = (f: string) => f + ": not a valid ESP32-S3 GPIO (0-48 except 22-25, or -1 = disabled)";
  assert.is(pinError(esp32s3, { pinBuzzer: 22 }), msg("pinBuzzer"));
  assert.is(pinError(esp32s3, { pinBuzzer: 25 }), msg("pinBuzzer"));
  assert.is(pinError(esp32s3, { pinModuleRx: 49 }), msg("pinModuleRx"));
  assert.is(pinError(esp32s3, { pinBuzzer: 48 }), null);
  assert.is(pinError(esp32s3, { pinBuzzer: 21, pinMatrix: 47 }), null);
});

test("rule 3: reserved pins name their reason (ESP32)", () => {
  for (const p of [6, 7, 8, 9, 10, 11]) {
    assert.is(pinError(esp32, { pinBuzzer: p }), "pinBuzzer: GPIO 6-11 are reserved for the SPI flash");
  }
  // Input pins are refused on reserved GPIOs too.
  assert.is(pinError(esp32, { pinModuleRx: 8 }), "pinModuleRx: GPIO 6-11 are reserved for the SPI flash");
});

test("rule 3: reserved pins name their reason (ESP32-S3)", () => {
  assert.is(pinError(esp32s3, { pinBtnLeft: 19 }), "pinBtnLeft: GPIO 19-20 are reserved for the USB-JTAG interface");
  assert.is(pinError(esp32s3, { pinBtnLeft: 26 }), "pinBtnLeft: GPIO 26-37 are reserved for the SPI flash and PSRAM");
  assert.is(pinError(esp32s3, { pinBtnLeft: 37 }), "pinBtnLeft: GPIO 26-37 are reserved for the SPI flash and PSRAM");
  assert.is(pinError(esp32s3, { pinModuleTx: 44 }), "pinModuleTx: GPIO 43-44 are reserved for the UART0 console");
  // 34 is a flash pin on the S3 (but an ADC1 input on the ESP32).
  assert.is(pinError(esp32s3, { pinBattery: 34 }), "pinBattery: GPIO 26-37 are reserved for the SPI flash and PSRAM");
});

test("rule 4: every output pin is refused on input-only GPIOs (ESP32)", () => {
  const outputs = ["pinMatrix", "pinBtnLeft", "pinBtnSelect", "pinBtnRight", "pinBuzzer", "pinI2cSda",
    "pinI2cScl", "pinModuleTx", "pinI2sBclk", "pinI2sLrclk", "pinI2sDout", "pinI2sMclk", "pinAmpEnable"];
  for (const f of outputs) {
    if (f === "pinMatrix") continue; // 36 is not on the driver list: rule 1 answers first
    const over: Partial<PinMap> = {};
    (over as { [k: string]: number })[f] = 36;
    assert.is(pinError(esp32, over), f + ": GPIO 34-39 are input-only", f);
  }
  assert.is(pinError(esp32, { pinBuzzer: 39 }), "pinBuzzer: GPIO 34-39 are input-only");
});

test("rule 4: battery, LDR and module RX may sit on input-only GPIOs", () => {
  assert.is(pinError(esp32, { pinModuleRx: 36 }), null);
  assert.is(pinError(esp32, { pinBattery: 36, pinLdr: 39 }), null);
});

test("rule 4 never fires on the ESP32-S3", () => {
  assert.is(pinError(esp32s3, { pinBuzzer: 38, pinBtnLeft: 39 }), null);
});

test("rule 5: battery and LDR need ADC1", () => {
  assert.is(pinError(esp32, { pinBattery: 25 }), "pinBattery: must be an ADC1 pin (GPIO 32-39, usable while WiFi is on)");
  assert.is(pinError(esp32, { pinLdr: 4 }), "pinLdr: must be an ADC1 pin (GPIO 32-39, usable while WiFi is on)");
  assert.is(pinError(esp32s3, { pinBattery: 14 }), "pinBattery: must be an ADC1 pin (GPIO 1-10, usable while WiFi is on)");
  assert.is(pinError(esp32s3, { pinLdr: 0 }), "pinLdr: must be an ADC1 pin (GPIO 1-10, usable while WiFi is on)");
  assert.is(pinError(esp32, { pinBattery: -1, pinLdr: -1 }), null);
  assert.is(pinError(esp32s3, { pinBattery: 10, pinLdr: 3 }), null);
});

test("order: rules 2-4 pin by pin in table order", () => {
  // Earlier field's reserved pin beats a later field's out-of-range value.
  assert.is(pinError(esp32, { pinBtnLeft: 6, pinBuzzer: 40 }), "pinBtnLeft: GPIO 6-11 are reserved for the SPI flash");
  // Earlier field's input-only pin beats a later field's invalid number.
  assert.is(pinError(esp32, { pinBtnSelect: 36, pinI2cSda: 45 }), "pinBtnSelect: GPIO 34-39 are input-only");
  // Earlier field's invalid number beats a later field's reserved pin.
  assert.is(pinError(esp32, { pinBtnRight: 41, pinBuzzer: 7 }), "pinBtnRight: not a valid ESP32 GPIO (0-39, or -1 = disabled)");
  assert.is(pinError(esp32s3, { pinBtnLeft: 23, pinBtnRight: 20 }),
    "pinBtnLeft: not a valid ESP32-S3 GPIO (0-48 except 22-25, or -1 = disabled)");
});

test("order: rules 5 and 6 run after every per-pin rule", () => {
  // pinBattery comes before pinBuzzer in the table, but ADC1 is checked last.
  assert.is(pinError(esp32, { pinBattery: 25, pinBuzzer: 36 }), "pinBuzzer: GPIO 34-39 are input-only");
  // A duplicate does not hide a later reserved pin.
  assert.is(pinError(esp32, { pinBtnLeft: 27, pinI2sDout: 9 }), "pinI2sDout: GPIO 6-11 are reserved for the SPI flash");
  // ADC1 before duplicates.
  assert.is(pinError(esp32, { pinBattery: 21 }), "pinBattery: must be an ADC1 pin (GPIO 32-39, usable while WiFi is on)");
});

test("rule 6: duplicates", () => {
  assert.is(pinError(esp32, { pinBuzzer: 23 }), "duplicate pin 23 (pinBuzzer, pinModuleRx)");
  assert.is(pinError(esp32, { pinBattery: 35 }), "duplicate pin 35 (pinBattery, pinLdr)");
  assert.is(pinError(esp32s3, { pinAmpEnable: 4 }), "duplicate pin 4 (pinI2sDout, pinAmpEnable)");
  // The first pair in table order is reported.
  assert.is(pinError(esp32, { pinBtnLeft: 18, pinBuzzer: 2, pinI2cScl: 2 }), "duplicate pin 18 (pinBtnLeft, pinModuleTx)");
});

test("rule 6: a collision with the matrix pin tells how to fix it", () => {
  assert.is(pinError(esp32, { pinMatrix: 21 }),
    "duplicate pin 21 (pinMatrix, pinI2cSda) - the matrix pin cannot be shared; move pinI2cSda to another GPIO in the same request");
  assert.is(pinError(esp32s3, { pinBuzzer: 21 }),
    "duplicate pin 21 (pinMatrix, pinBuzzer) - the matrix pin cannot be shared; move pinBuzzer to another GPIO in the same request");
  assert.is(pinError(esp32, { pinMatrix: 21, pinI2cSda: 17 }), null);
});

test("rule 6: -1 is never a duplicate", () => {
  assert.is(pinError(esp32, {
    pinBtnLeft: -1, pinBtnSelect: -1, pinBtnRight: -1, pinBattery: -1, pinLdr: -1, pinBuzzer: -1,
    pinI2cSda: -1, pinI2cScl: -1, pinModuleRx: -1, pinModuleTx: -1,
  }), null);
});

test("set pins are checked even when the part behind them is off", () => {
  assert.is(pinError(esp32, { pinModuleTx: 34, pinBattery: -1 }), "pinModuleTx: GPIO 34-39 are input-only");
});

test("I2S set: all three or none; MCLK and amp enable need the three", () => {
  const i2s = (board: Board, over: Partial<PinMap>) => checkI2sSet(map(board, over));
  const setMsg = "the I2S pins work as a set: give all three, or -1 for all three";
  let f = i2s(esp32, { pinI2sBclk: 4 });
  assert.equal([f!.status, f!.code, f!.field, f!.message], [422, "validationFailed", "pinI2sLrclk", setMsg]);
  f = i2s(esp32, { pinI2sDout: 4 });
  assert.is(f!.field, "pinI2sBclk");
  f = i2s(esp32s3, { pinI2sLrclk: -1 });
  assert.is(f!.field, "pinI2sLrclk");
  f = i2s(esp32s3, { pinI2sBclk: -1, pinI2sDout: -1 });
  assert.is(f!.field, "pinI2sBclk");
  assert.is(i2s(esp32s3, { pinI2sBclk: -1, pinI2sLrclk: -1, pinI2sDout: -1 }), null);
  f = i2s(esp32, { pinI2sMclk: 0 });
  assert.equal([f!.status, f!.field, f!.message], [422, "pinI2sMclk",
    "needs the three I2S pins (pinI2sBclk, pinI2sLrclk, pinI2sDout) set"]);
  f = i2s(esp32, { pinAmpEnable: 0 });
  assert.is(f!.field, "pinAmpEnable");
  assert.is(i2s(esp32s3, { pinI2sMclk: 0, pinAmpEnable: 3 }), null);
});

test("gpio capabilities object", () => {
  const g = gpioCapabilities(esp32s3, esp32s3Chip) as { [k: string]: unknown };
  assert.equal(JSON.parse(JSON.stringify(g)), {
    soc: "esp32s3", label: "ESP32-S3", max: 48, missing: [[22, 25]], inputOnly: [],
    reserved: [
      { lo: 19, hi: 20, why: "the USB-JTAG interface" },
      { lo: 26, hi: 37, why: "the SPI flash and PSRAM" },
      { lo: 43, hi: 44, why: "the UART0 console" },
    ],
    adc1: [[1, 10]], strapping: [[0, 0], [3, 3], [45, 46]], rtc: [[0, 21]],
    matrix: [13, 14, 15, 16, 17, 18, 21, 38, 39, 40, 41, 42, 47],
    defaults: esp32s3Chip.defaults,
  });
  assert.equal(Object.keys(g), ["soc", "label", "max", "missing", "inputOnly", "reserved", "adc1",
    "strapping", "rtc", "matrix", "defaults"]);
  const e = gpioCapabilities(esp32, esp32Chip) as { [k: string]: unknown };
  assert.is(e.max, 39);
  assert.equal(e.inputOnly, [[34, 39]]);
  assert.equal((e.defaults as PinMap).pinMatrix, 32);
});

test("helpers: rtc, existence, ADC1", () => {
  assert.ok(isRtcPin(esp32Chip, 27));
  assert.ok(isRtcPin(esp32Chip, 13));
  assert.not.ok(isRtcPin(esp32Chip, 16));
  assert.not.ok(isRtcPin(esp32Chip, -1));
  assert.ok(isRtcPin(esp32s3Chip, 12));
  assert.not.ok(isRtcPin(esp32s3Chip, 38));
  assert.ok(pinExists(esp32s3Chip, 21));
  assert.not.ok(pinExists(esp32s3Chip, 24));
  assert.not.ok(pinExists(esp32Chip, 40));
  assert.ok(isAdc1Pin(esp32Chip, 32));
  assert.not.ok(isAdc1Pin(esp32s3Chip, 11));
});

test.run();

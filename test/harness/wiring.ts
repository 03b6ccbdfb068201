// The simulated board's parts, soldered to the board file's default pins: a light sensor, a
// battery divider, three buttons and an environment sensor on the I2C bus.
import { SimHardware } from "./hardware";
import { ROOT } from "./root";
import * as path from "node:path";

/** Raw ADC levels the simulated taps start at: a lit room, a nearly full cell. */
export const SIM_LIGHT_RAW = 1200;
export const SIM_BATTERY_RAW = 2850;

export async function wireBoard(boardId: string): Promise<SimHardware> {
  const mod = await import(path.join(ROOT, "boards", boardId + ".ts"));
  const pins = mod.default.defaults;
  const hw = new SimHardware();
  hw.adc[pins.pinLdr] = SIM_LIGHT_RAW;
  hw.adc[pins.pinBattery] = SIM_BATTERY_RAW;
  for (const p of [pins.pinBtnLeft, pins.pinBtnSelect, pins.pinBtnRight]) hw.digital[p] = true;
  return hw;
}

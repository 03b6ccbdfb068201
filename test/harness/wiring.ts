// The simulated board's parts, soldered to the board file's default pins: a light sensor, a
// battery divider, three buttons and a BME280 on the I2C bus.
import * as path from "node:path";
import { SimHardware } from "./hardware";
import { SimBme280, SimI2C, type Environment } from "./sensors";
import { ROOT } from "./root";

/** Raw ADC levels the simulated taps start at: a lit room, a nearly full cell. */
export const SIM_LIGHT_RAW = 1200;
export const SIM_BATTERY_RAW = 2850;
export const SIM_ENVIRONMENT: Environment = { temperature: 31.5, humidity: 41.2, pressureHpa: 1013.2 };
export const BME280_ADDRESS = 0x76;

export async function wireBoard(boardId: string): Promise<SimHardware> {
  const mod = await import(path.join(ROOT, "boards", boardId + ".ts"));
  const pins = mod.chip.defaults;
  const hw = new SimHardware();
  hw.adc.set(pins.pinLdr, SIM_LIGHT_RAW);
  hw.adc.set(pins.pinBattery, SIM_BATTERY_RAW);
  for (const p of [pins.pinBtnLeft, pins.pinBtnSelect, pins.pinBtnRight]) hw.digital[p] = true;
  // The bus is the process's one simulated I2C wiring: one simulated clock at a time.
  SimI2C.reset();
  SimI2C.attach(new SimBme280({ env: Object.assign({}, SIM_ENVIRONMENT) }), BME280_ADDRESS, pins.pinI2cSda, pins.pinI2cScl);
  return hw;
}

// The parts soldered to the simulated board: analog taps, buttons and the I2C sensor bus.
import { SimAdc, SimI2C } from "./sensors";

export class SimHardware {
  readonly adc = new SimAdc();
  /** Logic level per pin; buttons idle high (pull-up), pressed low. */
  readonly digital: { [pin: number]: boolean } = {};

  analogRead(pin: number): number {
    return this.adc.read(pin);
  }

  /** Constructor the firmware gets as its global I2C; devices are attached with SimI2C.attach. */
  i2cClass(): new () => unknown {
    return SimI2C;
  }
}

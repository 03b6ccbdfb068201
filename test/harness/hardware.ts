// The parts soldered to the simulated board: analog taps, buttons and the I2C sensor bus.

export class SimHardware {
  /** Raw 12-bit ADC level per pin (0-4095). */
  readonly adc: { [pin: number]: number } = {};
  /** Logic level per pin; buttons idle high (pull-up), pressed low. */
  readonly digital: { [pin: number]: boolean } = {};
  /** Constructor the firmware gets as its global I2C. */
  i2c: new () => unknown = class {
    setup(): void { /* no bus fitted */ }
    writeTo(): void { throw new Error("I2C Error: No ACK"); }
    readFrom(): Uint8Array { throw new Error("I2C Error: No ACK"); }
  };

  analogRead(pin: number): number {
    return (this.adc[pin] || 0) / 4095;
  }

  i2cClass(): new () => unknown {
    return this.i2c;
  }
}

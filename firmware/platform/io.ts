// Pins: analog taps, buttons, the I2C bus.

/** A 12-bit ADC reading (0-4095), like the ESP32's analogRead in C. */
export function readAdc(pin: number): number {
  return Math.round(analogRead(pin) * 4095);
}

/** Active-low button with the internal pull-up; calls back on every change of state. */
export function watchButton(pin: number, onChange: (pressed: boolean) => void): void {
  pinMode(pin, "input_pullup");
  setWatch((e) => onChange(!e.state), pin, { repeat: true, edge: "both", debounce: 20 });
}

export function openI2c(sda: number, scl: number): I2C {
  const bus = new I2C();
  bus.setup({ sda, scl, bitrate: 100000 });
  return bus;
}

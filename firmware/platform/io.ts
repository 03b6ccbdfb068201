// Pins: analog taps and the I2C bus (the buttons: ./buttons.ts).

/** A 12-bit ADC reading (0-4095). Espruino on the ESP32 returns the raw count divided by 4096. */
export function readAdc(pin: number): number {
  return Math.min(4095, Math.round(analogRead(pin) * 4096));
}

export function openI2c(sda: number, scl: number): I2C {
  const bus = new I2C();
  bus.setup({ sda, scl, bitrate: 100000 });
  return bus;
}

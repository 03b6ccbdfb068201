// The driver module of the Bosch BME280 and BMP280 (see bosch.ts): the table entry says which.
import type { SensorDriver } from "./types";
import { probeBosch, readBosch } from "./bosch";

const bosch: SensorDriver = {
  probe: (bus, addr, sensor) => probeBosch(bus, addr, sensor.humidity),
  read: readBosch,
};
export default bosch;

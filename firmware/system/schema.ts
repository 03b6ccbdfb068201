// The system configuration: its typed shape and the one table every other part reads.
//
// Each row of fieldRows() describes one field as space-separated words:
//
//   <name> <kind> [arguments]
//
//   string  [default]              free text, not range-checked ("" when no default is given)
//   secret                         free text, omitted from reads, "" on write keeps the stored value
//   bool    <default>
//   int     <default> <lo> <hi>    integer in lo..hi
//   long    <default> <lo> <hi>    integer in lo..hi (kept apart from int for documentation only)
//   float   <default> <lo> <hi>    any number in lo..hi
//   enum    <default> <a,b,c>      one of the names, matched case-insensitively
//   ip                             dotted quad or ""
//   cidr                           dotted quad with an optional /0../32 suffix, or ""
//   sha256                         64 lowercase hex digits or ""
//   pin     <role>                 GPIO number or -1; the default comes from the board.
//                                  role: matrix (on the driver list, drives), out (drives a line),
//                                  in (may sit on an input-only pin), adc (input, ADC1 only)
//
// Rows are plain strings rather than objects because every object property costs interpreter
// variables on the device; a row is parsed only while a request or the boot load walks it.
// Validation, the boot load and the GET output all follow this table in this order, so adding a
// field means adding one row here and one member to SystemConfig.
import type { ChipRules, PinMap } from "../../boards/board";

export type PanelStart = "topLeft" | "topRight" | "bottomLeft" | "bottomRight";
export type PanelWiring = "rows" | "columns";
export type PanelColorOrder = "rgb" | "rbg" | "grb" | "gbr" | "brg" | "bgr";

export interface SystemConfig extends PinMap {
  wifiSsid: string;
  wifiPass: string;
  netStatic: boolean;
  ip: string;
  gateway: string;
  subnet: string;
  dns1: string;
  dns2: string;
  wifiConnectTimeout: number;
  wifiRoamRssi: number;
  mqttEnabled: boolean;
  mqttHost: string;
  mqttPort: number;
  mqttUser: string;
  mqttPass: string;
  mqttTls: boolean;
  mqttTlsPin: string;
  mqttPrefix: string;
  haDiscovery: boolean;
  haPrefix: string;
  ntpServer: string;
  tz: string;
  tzName: string;
  hostname: string;
  webPort: number;
  authEnabled: boolean;
  authUser: string;
  authPass: string;
  tempOffset: number;
  humOffset: number;
  batteryDividerRatio: number;
  minBrightness: number;
  maxBrightness: number;
  ldrFactor: number;
  ldrGamma: number;
  ldrOnGround: boolean;
  brightnessSmoothing: number;
  lowBatteryThreshold: number;
  panelWidth: number;
  panels: number;
  panelStart: PanelStart;
  panelWiring: PanelWiring;
  panelColorOrder: PanelColorOrder;
  panelSerpentine: boolean;
  mirror: boolean;
  rotate: boolean;
  swapButtons: boolean;
  modulePlayer: boolean;
  buttonCallback: string;
  artnet: boolean;
  statsInterval: number;
  tempDecimals: number;
  debugMode: boolean;
  scriptingEnabled: boolean;
}

/** Every field, in the order GET lists them. */
// The rows are made when asked for and dropped after use: held for good, the table would take
// about 260 of the interpreter's variables.
export function fieldRows(): string[] {
  return [
    "wifiSsid string",
    "wifiPass secret",
    "netStatic bool false",
    "ip cidr",
    "gateway ip",
    "subnet ip",
    "dns1 ip",
    "dns2 ip",
    "wifiConnectTimeout long 15000 5000 120000",
    "wifiRoamRssi int 0 -90 0",
    "mqttEnabled bool false",
    "mqttHost string",
    "mqttPort int 1883 1 65535",
    "mqttUser string",
    "mqttPass secret",
    "mqttTls bool false",
    "mqttTlsPin sha256",
    "mqttPrefix string",
    "haDiscovery bool false",
    "haPrefix string homeassistant",
    "ntpServer string pool.ntp.org",
    "tz string CET-1CEST,M3.5.0,M10.5.0/3",
    "tzName string Europe/Berlin",
    "hostname string",
    "webPort int 80 0 65535",
    "authEnabled bool false",
    "authUser string",
    "authPass secret",
    "tempOffset float -9 -20 20",
    "humOffset float 0 -50 50",
    "batteryDividerRatio float 1.79 0.1 10",
    "minBrightness int 10 0 255",
    "maxBrightness int 220 0 255",
    "ldrFactor float 1 0 10",
    "ldrGamma float 2.2 0.1 10",
    "ldrOnGround bool false",
    "brightnessSmoothing long 10000 0 60000",
    "lowBatteryThreshold int 0 0 100",
    "panelWidth int 32 1 128",
    "panels int 1 1 128",
    "panelStart enum topLeft topLeft,topRight,bottomLeft,bottomRight",
    "panelWiring enum rows rows,columns",
    "panelColorOrder enum grb rgb,rbg,grb,gbr,brg,bgr",
    "panelSerpentine bool true",
    "mirror bool false",
    "rotate bool false",
    "swapButtons bool false",
    "modulePlayer bool false",
    "buttonCallback string",
    "artnet bool false",
    "statsInterval int 10000 1000 600000",
    "tempDecimals int 0 0 2",
    "debugMode bool false",
    "scriptingEnabled bool true",
    // The pin map, in validation order.
    "pinMatrix pin matrix",
    "pinBtnLeft pin out",
    "pinBtnSelect pin out",
    "pinBtnRight pin out",
    "pinBattery pin adc",
    "pinLdr pin adc",
    "pinBuzzer pin out",
    "pinI2cSda pin out",
    "pinI2cScl pin out",
    "pinModuleRx pin in",
    "pinModuleTx pin out",
    "pinI2sBclk pin out",
    "pinI2sLrclk pin out",
    "pinI2sDout pin out",
    "pinI2sMclk pin out",
    "pinAmpEnable pin out",
  ];
}

export type Kind = "string" | "bool" | "int" | "long" | "float" | "enum" | "ip" | "cidr" | "sha256" | "pin";
export type PinRole = "matrix" | "out" | "in" | "adc";

/** One parsed row of fieldRows(). */
export interface FieldSpec {
  name: string;
  kind: Kind;
  /** Omitted from reads unless secrets are asked for; "" on write keeps the stored value. */
  secret: boolean;
  /** Default value; -1 for pins (their defaults come from the board). */
  def: string | number | boolean;
  /** Inclusive range of numeric kinds. */
  lo: number;
  hi: number;
  /** Canonical spellings of an enum. */
  values: string[];
  /** Pins only. */
  role: PinRole | "";
}

/** A config viewed as a plain record, for table-driven access. */
export type Bag = { [name: string]: unknown };

export function parseField(row: string): FieldSpec {
  const t = row.split(" ");
  const spec: FieldSpec = {
    name: t[0], kind: t[1] as Kind, secret: false, def: "", lo: 0, hi: 0, values: [], role: "",
  };
  const k = t[1];
  if (k === "secret") {
    spec.kind = "string";
    spec.secret = true;
  } else if (k === "bool") {
    spec.def = t[2] === "true";
  } else if (k === "int" || k === "long" || k === "float") {
    spec.def = parseFloat(t[2]);
    spec.lo = parseFloat(t[3]);
    spec.hi = parseFloat(t[4]);
  } else if (k === "enum") {
    spec.def = t[2];
    spec.values = t[3].split(",");
  } else if (k === "pin") {
    spec.def = -1;
    spec.role = t[2] as PinRole;
  } else if (t.length > 2) {
    spec.def = t[2];
  }
  return spec;
}

/** The spec of a field by name, or null for a key that is not a system field. */
export function findField(name: string): FieldSpec | null {
  const head = name + " ";
  const rows = fieldRows();
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].startsWith(head)) return parseField(rows[i]);
  }
  return null;
}

/** Names of the pin fields, in table (validation) order. */
export function pinFields(): string[] {
  const out: string[] = [];
  const rows = fieldRows();
  for (let i = 0; i < rows.length; i++) {
    const t = rows[i].split(" ");
    if (t[1] === "pin") out.push(t[0]);
  }
  return out;
}

/** Factory configuration for a board: table defaults plus the board's pin map (in `chip`). */
export function defaultConfig(chip: ChipRules): SystemConfig {
  const out: Bag = {};
  const pins = chip.defaults as unknown as Bag;
  const rows = fieldRows();
  for (let i = 0; i < rows.length; i++) {
    const spec = parseField(rows[i]);
    out[spec.name] = spec.kind === "pin" ? pins[spec.name] : spec.def;
  }
  return out as unknown as SystemConfig;
}

/** The GET representation: table order, secrets only when asked for. A fresh object. */
export function publicView(config: SystemConfig, withSecrets: boolean): Bag {
  const src = config as unknown as Bag;
  const out: Bag = {};
  const rows = fieldRows();
  for (let i = 0; i < rows.length; i++) {
    const t = rows[i].split(" ");
    if (!withSecrets && t[1] === "secret") continue;
    out[t[0]] = src[t[0]];
  }
  return out;
}

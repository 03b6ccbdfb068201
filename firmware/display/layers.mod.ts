// What draws effects, overlays and palettes, for the pages and the global overlay that use them:
// loaded by whoever makes one, and kept in memory only by the layers and inks it made.
import { makeLayer } from "./layer";
import { paletteInk } from "../palette/resolve";

const layers = { makeLayer, paletteInk };
export type Layers = typeof layers;
export default layers;

// Icons of pages: the payload key `icon` resolved to something a frame can draw cheaply.
//
// How a page uses it (outside frames: when the page is made):
//   const icon = findIcon(payload.icon);   // null: no icon, lay the page out as without one
//   icon.grade(canvas);                    // now, and again whenever the grading changes
// and in every frame, with `ms` the time since the page came on screen:
//   icon.draw(canvas.g, x, y, icon.frameAt(ms));
// An icon as wide as the panel (iconIsFull) is the page's background: drawn at x = 0 before the
// rest, it reserves no column; any other is drawn in the 9-px column it reserves (8 + a gap). JPEG
// icons are always 8x8; GIF icons keep their width, up to 32x8.
//
// Where an icon comes from: an `icon` of at most 64 characters is an id, the Storage file of
// /ICONS/<id>.gif, else of /ICONS/<id>.jpg (files/paths.ts); a longer one is the image itself in
// base64, optionally as a data URL (data:image/gif;base64, or data:image/jpeg;base64,), GIF when
// its bytes start with GIF8 and JPEG otherwise. Whatever does not decode is no icon.
//
// Decoding (the module icons/decode) happens once per source: its result is cached in Storage as
// "c/" + 8 hex digits of E.CRC32 of the source's Storage name (or of the inline string), with the
// CRC32 of the source bytes inside, so a file replaced under the same name is decoded again. A
// source that does not decode gets a cache file too (no colours, no frames), so a broken icon does
// not cost a decode every time its page is made. The frames stay in that file and are read in
// place (Storage maps it into memory): an icon costs a few variables however long it plays.
//
// The cache keeps at most CACHE_FILES files. The names of the last CACHE_FILES caches used since
// start are remembered (most recent last); when a new cache file would make one too many, cache
// files not among them are erased, the earliest written first (Storage lists in flash order), just
// enough to make room. Icons on screen are among the last used unless more than CACHE_FILES others
// were looked up since, so what goes is what has not been shown lately, and a loop of up to
// CACHE_FILES icons never decodes twice.
//
// Drawing: a frame is position triplets (see decode.mod.ts); one E.mapInPlace through the icon's
// graded 256-byte map turns it into 24 bpp pixels in a scratch image, which drawImage draws. The
// scratch image (3 bytes and the pixels of the largest icon drawn yet: 195 bytes for 8x8, 771
// for 32x8) and MAP_SLOTS maps of 256 bytes are shared by every icon and made with the first one
// (about 125 variables with 8x8 icons, 165 once a 32x8 one has drawn; kept from then on), and an
// icon itself holds about 17 (measured: test/unit/icons-espruino.test.ts). A map
// slot belongs to the icon that last graded into it; an icon whose slot was taken by others grades
// again (with the canvas it was last graded with) when it next draws. Three slots cover the icons
// a frame can show at once (the page, the page coming in and a page being made) without that.
// Drawing allocates nothing while an icon's frame stays the same; when it changes, a view of the
// new frame (one variable) replaces the old one.
import type { Canvas } from "../display/canvas";
import { storageName } from "../files/paths";
import { loadModule } from "../platform/modules";
import type DecodeIcon from "./decode.mod";
import { log } from "../logs/log";

/** Icon strings longer than this are inline image data. */
const INLINE_OVER = 64;
/** Most cache files kept. */
export const CACHE_FILES = 24;
/** Icons drawn without regrading, whatever order they draw in. */
const MAP_SLOTS = 3;
/** Cached form (decode.mod.ts): header bytes before the delays. */
const HEADER = 12;
/** Widest icon: the panel's width; an icon that wide is a background. */
const FULL_WIDTH = 32;

export interface IconImage {
  readonly width: number;
  readonly height: number;
  /** Number of frames (1 for a still image). */
  readonly frames: number;
  /** The frame on screen `ms` after the page came on screen (the frames' own delays, looping). */
  frameAt(ms: number): number;
  /** Grades the icon's colours through `c` (the canvas it is drawn on); call again when the grading changes. */
  grade(c: Canvas): void;
  /** Draws `frame` with its top left at x, y; allocates nothing while the frame stays the same. */
  draw(g: Graphics, x: number, y: number, frame: number): void;
}

/** What every icon shares, made with the first icon. */
interface Shared {
  /** An image for drawImage: width, height, 24 (bpp), then the pixels of the largest icon drawn yet. */
  image: Uint8Array;
  pixels: Uint8Array;
  /** Which icon's frame `pixels` holds (serial * 65536 + frame), -1 none. */
  holds: number;
  maps: Uint8Array[];
  /** Serial of the icon each map slot is graded for, and the tick of its last draw. */
  owners: Int32Array;
  used: Uint32Array;
  tick: number;
  serial: number;
}

/**
 * What the icons of one load of the page module share: the scratch image and map slots (made with
 * the first icon drawn), and the 8-hex-digit names of the cache files used lately, most recent
 * last. Held by whoever makes the pages, and dropped with them.
 */
export interface IconState {
  shared: Shared | null;
  recent: string;
}

export function newIconState(): IconState {
  return { shared: null, recent: "" };
}

function share(st: IconState): Shared {
  if (st.shared) return st.shared;
  // Grown when a larger icon first draws: most icons are 8x8.
  const image = new Uint8Array(3 + 3 * 64);
  image[2] = 24;
  const all = new Uint8Array(256 * MAP_SLOTS);
  const maps: Uint8Array[] = [];
  for (let i = 0; i < MAP_SLOTS; i++) maps.push(all.subarray(256 * i, 256 * (i + 1)));
  const owners = new Int32Array(MAP_SLOTS);
  for (let i = 0; i < MAP_SLOTS; i++) owners[i] = -1;
  const shared = { image, pixels: image.subarray(3), holds: -1, maps, owners, used: new Uint32Array(MAP_SLOTS), tick: 0, serial: 0 };
  st.shared = shared;
  return shared;
}

class Icon implements IconImage {
  /** The cached form, read in place. */
  private b: Uint8Array;
  private id: number;
  /** Length of one pass of the animation, ms. */
  private loop: number;
  /** The frame `view` covers, -1 none. */
  private shown: number;
  private view: Uint8Array | null;
  private canvas: Canvas | null;
  private slot: number;
  private st: IconState;

  constructor(file: string, st: IconState) {
    const b = new Uint8Array(E.toArrayBuffer(file));
    this.b = b;
    this.st = st;
    const s = share(st);
    this.id = ++s.serial;
    let loop = 0;
    const n = b[6] | (b[7] << 8);
    for (let k = 0; k < n; k++) loop += 10 * (b[HEADER + 2 * k] | (b[HEADER + 2 * k + 1] << 8));
    this.loop = loop;
    this.shown = -1;
    this.view = null;
    this.canvas = null;
    this.slot = -1;
  }

  get width(): number {
    return this.b[3];
  }

  get height(): number {
    return this.b[4];
  }

  get frames(): number {
    return this.b[6] | (this.b[7] << 8);
  }

  frameAt(ms: number): number {
    const b = this.b;
    const n = this.frames;
    if (n < 2 || !(this.loop > 0)) return 0;
    let t = ms % this.loop;
    if (t < 0) t += this.loop;
    for (let k = 0; k < n; k++) {
      const d = 10 * (b[HEADER + 2 * k] | (b[HEADER + 2 * k + 1] << 8));
      if (t < d) return k;
      t -= d;
    }
    return n - 1;
  }

  grade(c: Canvas): void {
    this.canvas = c;
    this.fill(share(this.st));
  }

  /** Takes a map slot (its own if still its own, else the one drawn least lately) and grades into it. */
  private fill(s: Shared): void {
    let slot = this.slot;
    if (slot < 0 || s.owners[slot] !== this.id) {
      slot = 0;
      for (let i = 1; i < MAP_SLOTS; i++) if (s.used[i] < s.used[slot]) slot = i;
      this.slot = slot;
      s.owners[slot] = this.id;
    }
    const b = this.b;
    const m = s.maps[slot];
    const c = this.canvas;
    const colors = HEADER + 2 * this.frames;
    for (let i = 0; i < b[5]; i++) {
      const at = colors + 3 * i;
      let v = (b[at] << 16) | (b[at + 1] << 8) | b[at + 2];
      // Not graded yet: the colours as they are (what a screen capture shows).
      if (c) {
        c.color(v);
        v = c.g.getColor();
      }
      m[3 * i] = (v >> 16) & 255;
      m[3 * i + 1] = (v >> 8) & 255;
      m[3 * i + 2] = v & 255;
    }
    if (Math.floor(s.holds / 65536) === this.id) s.holds = -1;
  }

  draw(g: Graphics, x: number, y: number, frame: number): void {
    const s = share(this.st);
    if (this.slot < 0 || s.owners[this.slot] !== this.id) this.fill(s);
    s.used[this.slot] = ++s.tick;
    const n = this.frames;
    const f = frame > 0 && frame < n ? frame | 0 : 0;
    const b = this.b;
    const size = 3 * b[3] * b[4];
    if (f !== this.shown || !this.view) {
      this.view = new Uint8Array(b.buffer, HEADER + 2 * n + 3 * b[5] + f * size, size);
      this.shown = f;
    }
    const key = this.id * 65536 + f;
    if (s.image.length < 3 + size) {
      const image = new Uint8Array(3 + size);
      image[2] = 24;
      s.image = image;
      s.pixels = image.subarray(3);
      s.holds = -1;
    }
    if (s.holds !== key) {
      E.mapInPlace(this.view, s.pixels, s.maps[this.slot]);
      s.image[0] = b[3];
      s.image[1] = b[4];
      s.holds = key;
    }
    g.drawImage(s.image as unknown as GraphicsImage, x, y);
  }
}

/** Whether an icon spans the panel: then it is the page's background, not a column beside the text. */
export function iconIsFull(img: IconImage): boolean {
  return img.width >= FULL_WIDTH;
}

/** The bytes of inline icon data (base64, or a gif or jpeg base64 data URL); undefined when it is neither. */
function inlineBytes(icon: string): string | undefined {
  let data = icon;
  if (icon.substr(0, 5) === "data:") {
    const comma = icon.indexOf(",");
    const head = comma > 0 ? icon.substr(0, comma + 1) : "";
    if (head !== "data:image/gif;base64," && head !== "data:image/jpeg;base64,") return undefined;
    data = icon.substr(comma + 1);
  }
  try {
    const bytes = atob(data);
    return bytes.length > 0 ? bytes : undefined;
  } catch (e) {
    return undefined;
  }
}

/** Notes cache `hex` as the one used last. */
function remember(st: IconState, hex: string): void {
  const recent = st.recent;
  let kept = "";
  for (let i = 0; i < recent.length; i += 8) {
    const h = recent.substr(i, 8);
    if (h !== hex) kept += h;
  }
  kept += hex;
  st.recent = kept.length > 8 * CACHE_FILES ? kept.substr(kept.length - 8 * CACHE_FILES) : kept;
}

/** Erases cache files not used lately until a new one fits within CACHE_FILES. */
function prune(st: IconState, storage: StorageModule, name: string): void {
  const recent = st.recent;
  const names = storage.list(/^c\//);
  let count = names.length;
  for (let i = 0; i < names.length && count >= CACHE_FILES; i++) {
    const other = names[i];
    if (other === name) {
      count--;
      continue;
    }
    let used = false;
    for (let k = 0; k < recent.length; k += 8) if (recent.substr(k, 8) === other.substr(2)) used = true;
    if (!used) {
      storage.erase(other);
      count--;
    }
  }
}

/** Whether cached form `file` was made from source bytes with CRC32 `crc`. */
function current(file: string, crc: number): boolean {
  if (file.length < HEADER || file.charCodeAt(0) !== 0x49 || file.charCodeAt(1) !== 0x43 || file.charCodeAt(2) !== 1) return false;
  const was = (file.charCodeAt(8) | (file.charCodeAt(9) << 8) | (file.charCodeAt(10) << 16) | (file.charCodeAt(11) << 24)) >>> 0;
  return was === crc;
}

/**
 * The icon `icon` names (an id or inline data), decoded through the cache; null when there is
 * none or it does not decode. Call it outside frames: the first use of a source decodes it
 * (about 40 ms for a 1 KB animated GIF in the Linux interpreter, several times that on the clock).
 */
export function findIcon(icon: string, st: IconState): IconImage | null {
  if (typeof icon !== "string" || icon.length === 0) return null;
  const storage = require("Storage");
  let key = "";
  let src: string | undefined;
  if (icon.length > INLINE_OVER) {
    key = icon;
    src = inlineBytes(icon);
  } else {
    key = storageName("/ICONS", icon + ".gif");
    src = key ? storage.read(key) : undefined;
    if (src === undefined) {
      key = storageName("/ICONS", icon + ".jpg");
      src = key ? storage.read(key) : undefined;
    }
  }
  if (!src) return null;
  const hex = (E.CRC32(key) >>> 0).toString(16).padStart(8, "0");
  const name = "c/" + hex;
  const crc = E.CRC32(src) >>> 0;
  remember(st, hex);
  let file = storage.read(name);
  if (file === undefined || !current(file, crc)) {
    let data: string | null;
    try {
      data = loadModule<typeof DecodeIcon>("icons/decode")(src);
    } catch (e) {
      // Not a verdict on the source (a module or memory problem): nothing is cached.
      log("icon " + name + ": " + e);
      return null;
    }
    if (data === null) {
      data = String.fromCharCode(0x49, 0x43, 1, 0, 0, 0, 0, 0, crc & 255, (crc >>> 8) & 255, (crc >>> 16) & 255, crc >>> 24);
    }
    src = undefined;
    prune(st, storage, name);
    try {
      if (!storage.write(name, data)) return null;
    } catch (e) {
      return null;
    }
    file = storage.read(name);
    if (file === undefined) return null;
  }
  if (file.charCodeAt(5) === 0) return null;
  return new Icon(file, st);
}

// The page of a pushed app or a notification, made from its stored payload (payload/stored.ts)
// while it is on screen or about to come.
//
// Paint order: the background (an effect, else backgroundColor; a GIF as wide as the panel replaces
// both), then the text and the decorations (draw list, progress bar, bar chart, line chart), the
// text last when textInFront and first otherwise, then the icon, then the page's own overlay.
//
// For the engine's still buffer the page splits itself by what changes with time. Text that
// neither scrolls, blinks nor fades makes the whole page still. Otherwise the text is the moving
// part: with textInFront the decorations are still and the text is drawn over them; without it
// the decorations must cover the text, so they are drawn once into a buffer of their own whose
// untouched pixels hold a key colour, and that buffer is laid over the text each frame with the
// key transparent. Either way a frame of moving text costs the text and at most one image copy.
//
// What animates under the page (an effect, a full-width animated GIF) repaints the whole panel every
// frame: then nothing is still but the decorations, which always take their keyed buffer, and the
// text is drawn every frame over the background. What animates over the page (the icon when the
// text moves or the icon itself does, the overlay) is drawn after the moving part.
import type { Canvas } from "../display/canvas";
import type { FrameContext } from "../apps/types";
import type { TextKit } from "../apps/text-kit";
import type { Settings } from "../settings/types";
import type { FontName, TextLine } from "../text/font";
import type { ScrollTrack } from "../text/scroll";
import type { ScrollSpec } from "../text/scroll-spec";
import type { MakePayloadPage, PayloadFields, PayloadHost, PayloadPage, StoredPayload } from "./stored";
import { payloadFields } from "./stored";
import type { DrawProgram } from "./draw";
import { runDraw } from "./draw";
import type { ChartData } from "./chart";
import { drawBarChart, drawLineChart } from "./chart";
import { drawProgress } from "./progress";
import { defaultColor } from "./schema";
import type { Layer } from "../display/layer";
import type { Layers } from "../display/layers.mod";
import type FindIcon from "../icons/find.mod";
import { loadModule } from "../platform/modules";
import type { PaletteInk } from "../palette/ink";
import type { IconImage } from "../icons/icon";
import { newIconState } from "../icons/icon";
import { STEPS } from "../effects/types";

/** What the icons of this load of the module share (dropped with the module, when no page is left). */
const icons = newIconState();

/** Columns an icon takes from the text, charts and progress bar: 8 for the icon, 1 gap. */
const ICON_COLUMN = 9;
/** Width assumed for counting passes before the first frame has told the real one. */
const PANEL_WIDTH = 32;
/**
 * The decorations' buffer starts filled with this wire colour and is laid over the text with it
 * transparent; a decoration whose graded colour happens to be it is drawn one step off instead.
 */
const KEY = 0x010203;
/** The frame of a page whose lifetime ran out with lifetimeExpiry "mark": its data is stale. */
const STALE_COLOR = 0x6e0700;
/** The glyphs' colour in the stencil of text painted from the palette (see drawRamp). */
const HOLE = 0x000001;
/** Widest row of position triplets kept for text painted from the palette (3 bytes a column). */
const STEPS_MAX = 512;

// How plain text is coloured, in the spec's order of priority.
const SOLID = 0;
const RAMP = 1;
const FADE = 2;
const BLINK = 3;

class PushedPage implements PayloadPage {
  private kit: TextKit;
  private fields: PayloadFields;
  private text: string;
  /** StoredPayload.r, or "" for plain text. */
  private runs: string;
  private font: FontName;
  /** Per colour run (one for plain text): its layout, its x from the text's left edge, its colour. */
  private lines: TextLine[];
  private xs: number[];
  private colors: number[];
  /**
   * The text's colours as the grading of the last drawStill turned them into wire colours: black,
   * the one text colour, then each run's. Grading a colour costs more than drawing a glyph, and
   * any change of the grading makes the engine draw the still part again before the next moving
   * part, so the moving part reuses them.
   */
  private wires: number[];
  private width: number;
  private upper: boolean;
  private track: ScrollTrack;
  /** First column of the text area (right of the icon column). */
  private left: number;
  private mode: number;
  private program: DrawProgram | undefined;
  private bars: ChartData | undefined;
  private points: ChartData | undefined;
  private decorated: boolean;
  private progressColor: number;
  private trackColor: number;
  /** Tells this page's still part from any other's (a replaced payload gets a new page). */
  private key: number;
  /** What layout and motion were last worked out for: the settings object and the canvas width. */
  private seen: Settings | null;
  private seenWidth: number;
  private moving: boolean;
  /** The decorations' own buffer (text behind decorations only), made when first needed. */
  private decor: Graphics | null;
  private decorImage: GraphicsImage | null;
  private keyed: Canvas | null;
  /** The canvas whose grading the decorations' buffer is drawn with. */
  private grader: Canvas | null;
  // What only some pages have is absent from the others (an absent property costs no variable):
  /** The background effect, the page's own overlay. */
  declare private under?: Layer;
  declare private over?: Layer;
  declare private icon?: IconImage;
  /** The icon is as wide as the panel: a background, under the text, with no column. */
  declare private iconBack?: boolean;
  /** The grading the icon was graded under (FrameContext.grading). */
  declare private iconGraded?: number;
  /** iconMode pushOnce: the text has pushed the icon out, and it stays gone. */
  declare private iconGone?: boolean;
  /** Something is drawn every frame (text, effect, animated icon or overlay). */
  declare private live?: boolean;
  /** Framed as stale (markStale). */
  declare private stale?: boolean;
  /** The app's own palette, when something paints from it (text, charts, progress). */
  declare private ink?: PaletteInk;
  /** Text painted from the palette: its column colours, its stencil and what makes them (see drawRamp). */
  declare private ramp?: {
    paint: Graphics;
    stencil: Graphics;
    paintImage: GraphicsImage;
    stencilImage: GraphicsImage;
    /** The paint's first row (the position triplets of the frame's columns, then their colours). */
    row: Uint8Array;
    /** The paint's first rows (height set for each use), drawn under themselves to fill it. */
    rows: GraphicsImage;
    /** The text's columns' triplets (PaletteInk.steps), for this span and text width; null: too wide. */
    steps: GraphicsImage | null;
    stepsSpan: number;
    stepsWidth: number;
  };

  constructor(p: StoredPayload, host: PayloadHost) {
    const f = payloadFields(p);
    this.kit = host.text;
    this.fields = f;
    this.text = p.t || "";
    this.runs = p.r || "";
    this.font = f.font === "large" ? "large" : "small";
    this.lines = [];
    this.xs = [];
    this.colors = [];
    this.wires = [];
    this.width = 0;
    this.upper = false;
    this.track = new host.text.Track();
    const icon = f.icon ? loadModule<typeof FindIcon>("icons/find")(f.icon, icons) : null;
    if (icon) {
      this.icon = icon;
      if (icon.width >= host.width) this.iconBack = true;
    }
    this.left = this.icon && !this.iconBack ? ICON_COLUMN : 0;
    const blend = f.paletteBlend !== false;
    const speed = f.effectSpeed || 1;
    const painted = f.textColor === "palette" || f.chartColor === "palette" || f.progressColor === "palette";
    // Effects, overlays and palettes come with a module of their own, loaded only for pages that use one.
    const layers = f.effect || f.overlay || (painted && f.palette !== undefined) ? loadModule<Layers>("display/layers") : null;
    const under = layers && f.effect && !this.iconBack ? layers.makeLayer("effects", f.effect, f.palette, blend, speed, host.width, 8) : null;
    if (under) this.under = under;
    const over = layers && f.overlay ? layers.makeLayer("overlays", f.overlay, f.palette, blend, speed, host.width, 8) : null;
    if (over) this.over = over;
    // A palette that no longer resolves (its file was deleted) paints nothing: the normal colours stay.
    const ink = layers && painted && f.palette !== undefined ? layers.paletteInk(f.palette, blend, "") : null;
    if (ink && ink.given) this.ink = ink;
    this.mode = f.textColor === "palette" && this.ink ? RAMP : f.textFadeMs ? FADE : f.textBlinkMs ? BLINK : SOLID;
    this.program = p.d;
    this.bars = p.b;
    this.points = p.l;
    this.decorated = !!p.d || !!p.b || !!p.l || f.progress !== undefined;
    this.progressColor = typeof f.progressColor === "number" ? f.progressColor : defaultColor("progressColor");
    this.trackColor = f.progressTrackColor !== undefined ? f.progressTrackColor : defaultColor("progressTrackColor");
    this.key = Math.random();
    this.seen = null;
    this.seenWidth = 0;
    this.moving = false;
    this.decor = null;
    this.decorImage = null;
    this.keyed = null;
    this.grader = null;
    const runs = this.runs;
    for (let i = 0; i < runs.length; i += 5) {
      this.colors.push((runs.charCodeAt(i + 2) << 16) | (runs.charCodeAt(i + 3) << 8) | runs.charCodeAt(i + 4));
    }
    this.layout(true);
  }

  /** Lays the text out again, one line per colour run, reusing the lines. */
  private layout(upper: boolean): void {
    const text = this.text;
    const runs = this.runs;
    const count = !text ? 0 : runs ? runs.length / 5 : 1;
    let start = 0;
    let x = 0;
    for (let i = 0; i < count; i++) {
      const end = runs ? (runs.charCodeAt(i * 5) << 8) | runs.charCodeAt(i * 5 + 1) : text.length;
      const piece = text.substring(start, end);
      if (this.lines[i]) this.kit.layout(piece, this.font, upper, this.lines[i]);
      else this.lines.push(this.kit.layout(piece, this.font, upper));
      const line = this.lines[i];
      this.xs[i] = x;
      // A line's width leaves out the blank column after its last glyph; the next run starts past it.
      if (line.runs.length) x += line.width + 1;
      start = end;
    }
    this.width = x > 0 ? x - 1 : 0;
    this.upper = upper;
  }

  /** Case, scroll and motion for these settings and this width (again only when either changed). */
  private prepare(width: number, s: Settings): void {
    if (s === this.seen && width === this.seenWidth) return;
    const f = this.fields;
    const upper = f.textCase === "upper" || (f.textCase === undefined && s.uppercase);
    if (upper !== this.upper) this.layout(upper);
    // Field by field over the global scroll as it is now, so a later change of it applies here too.
    const spec = f.scroll ? Object.assign({}, s.scroll, f.scroll) as ScrollSpec : s.scroll;
    this.track.setup(spec, this.width, this.left, width - this.left, f.textOffsetX || 0, f.textCenter !== false);
    const animated = this.mode === FADE || this.mode === BLINK || (this.mode === RAMP && !!f.paletteSpeed);
    this.moving = this.lines.length > 0 && (this.track.moves || animated);
    const icon = this.icon;
    if (this.moving || this.under || this.over || (icon && icon.frames > 1)) this.live = true;
    else delete this.live;
    this.seen = s;
    this.seenWidth = width;
  }

  /** The text's one colour: its own, else the global one (also what a palette ramp stands in for). */
  private textColor(s: Settings): number {
    const c = this.fields.textColor;
    return typeof c === "number" ? c : s.textColor;
  }

  passes(f: FrameContext): number {
    this.prepare(this.seenWidth || PANEL_WIDTH, f.settings);
    return this.moving && this.track.moves ? this.track.passes(f.shownMs) : -1;
  }

  stillKey(): number {
    return this.key;
  }

  overlaid(): boolean {
    return !!this.over;
  }

  markStale(): void {
    this.stale = true;
    this.key = Math.random();
  }

  /** The stale frame: over the text and decorations, under the icon and the overlay. */
  private mark(c: Canvas): void {
    if (!this.stale) return;
    c.color(STALE_COLOR);
    c.g.drawRect(0, 0, c.width - 1, c.height - 1);
  }

  draw(c: Canvas, f: FrameContext): void {
    this.prepare(c.width, f.settings);
    this.background(c, f);
    this.body(c, f);
    this.mark(c);
    this.drawIcon(c, f);
    if (this.over) this.over.draw(c, f.shownMs, f.grading);
  }

  drawStill(c: Canvas, f: FrameContext): void {
    this.prepare(c.width, f.settings);
    if (!this.live) {
      this.draw(c, f);
      return;
    }
    this.gradeColors(c, f.settings);
    if (this.animatedBack()) {
      if (this.decorated) this.drawDecor(c, f.settings);
      return;
    }
    this.background(c, f);
    if (!this.moving) {
      this.body(c, f);
      this.mark(c);
      if (!this.iconMoves()) this.drawIcon(c, f);
    } else if (this.decorated) {
      if (this.fields.textInFront) this.decorations(c, f.settings);
      else this.drawDecor(c, f.settings);
    }
  }

  drawMoving(c: Canvas, f: FrameContext): void {
    this.prepare(c.width, f.settings);
    if (!this.live) return;
    const decor = this.decorated ? this.decorImage : null;
    const front = this.fields.textInFront;
    if (this.animatedBack()) {
      this.background(c, f);
      if (front && decor) c.g.drawImage(decor, 0, 0);
      this.drawText(c, f, true);
      if (!front && decor) c.g.drawImage(decor, 0, 0);
    } else if (this.moving) {
      this.drawText(c, f, true);
      if (!front && decor) c.g.drawImage(decor, 0, 0);
    }
    if (this.animatedBack() || this.moving) this.mark(c);
    if (this.iconMoves()) this.drawIcon(c, f);
    if (this.over) this.over.draw(c, f.shownMs, f.grading);
  }

  /** The background changes every frame: an effect, or a full-width icon that animates. */
  private animatedBack(): boolean {
    return !!this.under || (!!this.iconBack && (this.icon as IconImage).frames > 1);
  }

  /** The icon is drawn every frame: it animates, or something under it does. */
  private iconMoves(): boolean {
    const icon = this.icon;
    return !!icon && !this.iconBack && (icon.frames > 1 || this.moving || !!this.under);
  }

  private background(c: Canvas, f: FrameContext): void {
    const fields = this.fields;
    if (this.iconBack) {
      this.paintIcon(c, f, 0);
      return;
    }
    if (this.under) {
      this.under.draw(c, f.shownMs, f.grading);
      return;
    }
    if (fields.backgroundColor === undefined) return;
    c.color(fields.backgroundColor);
    c.g.fillRect(0, 0, c.width - 1, c.height - 1);
  }

  /**
   * The icon in its column (a full-width one is the background instead). With iconMode push or
   * pushOnce, scrolling text shoves it left as its first column passes the text area's edge, up to
   * the whole column; push brings it back with every pass, pushOnce leaves it gone after the first
   * and gives its column to the text.
   */
  private drawIcon(c: Canvas, f: FrameContext): void {
    if (!this.icon || this.iconBack || this.iconGone) return;
    const mode = this.fields.iconMode;
    let shift = 0;
    const track = this.track;
    if (mode && track.moves && this.lines.length) {
      if (mode === "pushOnce" && track.passes(f.shownMs) >= 1) {
        this.iconGone = true;
        this.left = 0;
        this.seen = null;
        return;
      }
      const x = track.copyX(f.shownMs, 0);
      shift = x < this.left ? Math.max(-ICON_COLUMN, x - this.left) : 0;
    }
    this.paintIcon(c, f, (this.fields.iconOffsetX || 0) + shift);
  }

  private paintIcon(c: Canvas, f: FrameContext, x: number): void {
    const icon = this.icon as IconImage;
    if (f.grading === undefined || f.grading !== this.iconGraded) {
      icon.grade(c);
      if (f.grading !== undefined) this.iconGraded = f.grading;
    }
    icon.draw(c.g, x, 0, icon.frameAt(f.shownMs));
  }

  private body(c: Canvas, f: FrameContext): void {
    if (this.fields.textInFront) {
      this.decorations(c, f.settings);
      this.drawText(c, f, false);
    } else {
      this.drawText(c, f, false);
      this.decorations(c, f.settings);
    }
  }

  /** Draw list, progress bar, bar chart, line chart, in that order. */
  private decorations(c: Canvas, s: Settings): void {
    const f = this.fields;
    const left = this.left;
    const textColor = this.textColor(s);
    const chartColor = typeof f.chartColor === "number" ? f.chartColor : textColor;
    const autoscale = f.chartAutoscale !== false;
    const ink = this.ink;
    const ramp = ink ? (k: number) => ink.ramp(k) : undefined;
    const chartRamp = f.chartColor === "palette" ? ramp : undefined;
    if (this.program) runDraw(c, this.program, textColor, this.font);
    if (f.progress !== undefined) {
      drawProgress(c, f.progress, left, this.progressColor, this.trackColor, f.progressColor === "palette" ? ramp : undefined);
    }
    if (this.bars) drawBarChart(c, this.bars, left, autoscale, chartColor, chartRamp);
    if (this.points) drawLineChart(c, this.points, left, autoscale, chartColor, chartRamp);
  }

  /** The decorations into their own buffer, graded as `c` grades, everything else the key colour. */
  private drawDecor(c: Canvas, s: Settings): void {
    let g = this.decor;
    if (!g || g.getWidth() !== c.width) {
      const own = Graphics.createArrayBuffer(c.width, c.height, 24);
      g = own;
      this.decor = own;
      this.decorImage = { width: c.width, height: c.height, bpp: 24, buffer: own.buffer, transparent: KEY };
      const page = this;
      this.keyed = {
        g: own,
        width: c.width,
        height: c.height,
        color(rgb: number, level?: number): void {
          const grader = page.grader as Canvas;
          grader.color(rgb, level);
          const wire = grader.g.getColor();
          own.setColor(wire === KEY ? KEY ^ 1 : wire);
        },
      };
    }
    this.grader = c;
    g.setColor(KEY);
    g.fillRect(0, 0, c.width - 1, c.height - 1);
    this.decorations(this.keyed as Canvas, s);
  }

  private gradeColors(c: Canvas, s: Settings): void {
    if (this.ink) this.ink.grade(c, KEY);
    const wires = this.wires;
    const colors = this.colors;
    c.color(0);
    wires[0] = c.g.getColor();
    c.color(this.textColor(s));
    wires[1] = c.g.getColor();
    for (let i = 0; i < colors.length; i++) {
      c.color(colors[i]);
      wires[2 + i] = c.g.getColor();
    }
  }

  /** The text at f.shownMs; `graded`: in the colours gradeColors kept (not while fading, which grades every frame). */
  private drawText(c: Canvas, f: FrameContext, graded: boolean): void {
    const lines = this.lines;
    if (!lines.length) return;
    if (this.mode === RAMP) {
      if (!graded) (this.ink as PaletteInk).grade(c, KEY);
      this.drawRamp(c, f);
      return;
    }
    const fields = this.fields;
    const t = f.shownMs;
    let level = 1;
    let dark = false;
    if (this.mode === FADE) {
      // Full at the start of each period, black half way through.
      const period = fields.textFadeMs as number;
      level = 0.5 + 0.5 * Math.cos((2 * Math.PI * (t % period)) / period);
    } else if (this.mode === BLINK) {
      const period = fields.textBlinkMs as number;
      dark = t % period < period / 2;
    }
    const own = this.runs ? this.colors : null;
    const solid = this.textColor(f.settings);
    const wires = graded && this.mode !== FADE ? this.wires : null;
    const y = (c.height - this.kit.capHeight(this.font)) >> 1;
    const g = c.g;
    const track = this.track;
    const xs = this.xs;
    for (let n = 0; ; n++) {
      const x = track.copyX(t, n);
      if (isNaN(x)) break;
      for (let i = 0; i < lines.length; i++) {
        const at = x + xs[i];
        if (at >= c.width || at + lines[i].width < 0) continue;
        if (wires) g.setColor(wires[dark ? 0 : own ? 2 + i : 1]);
        else c.color(dark ? 0 : own ? own[i] : solid, level);
        this.kit.draw(g, lines[i], at, y);
      }
    }
  }

  /**
   * Text painted from the palette: each copy's columns get their colours in one buffer, and its
   * glyphs go as HOLE into a stencil that is KEY elsewhere; the stencil laid over the colours (HOLE
   * transparent) leaves them only under the glyphs, and that is laid over the page (KEY
   * transparent). paletteSpan 0 stretches the palette once over the text, first entry to last; a
   * span repeats it every that many columns; paletteSpeed moves it by that many passes a second
   * (a moving stretched palette repeats over the text's width).
   *
   * The colours come from a row of position triplets (PaletteInk.steps) made once per span and
   * text width: the text's own columns, or with a span only as many as one copy can show, since
   * they repeat every span columns. A frame draws that row at each copy's place into the paint's
   * first row (clipped to the copy), turns it in place into wire colours with one E.mapInPlace
   * through the ink's map for the frame's shift (the shift rounded to a whole step, common to
   * all columns), and copies that row down the paint: a few native calls whatever the width.
   * A row of triplets wider than STEPS_MAX (a stretched or widely spanned palette over a long
   * text) is not kept: then each column is coloured on its own, as a line.
   */
  private drawRamp(c: Canvas, f: FrameContext): void {
    const w = c.width;
    const h = c.height;
    const ink = this.ink as PaletteInk;
    const fields = this.fields;
    const width = this.width;
    const speed = fields.paletteSpeed || 0;
    const span = fields.paletteSpan || (speed ? width : 0);
    let r = this.ramp;
    if (!r || r.paint.getWidth() !== w) {
      const paint = Graphics.createArrayBuffer(w, h, 24);
      const stencil = Graphics.createArrayBuffer(w, h, 24);
      r = {
        paint, stencil,
        paintImage: { width: w, height: h, bpp: 24, buffer: paint.buffer, transparent: KEY },
        stencilImage: { width: w, height: h, bpp: 24, buffer: stencil.buffer, transparent: HOLE },
        row: new Uint8Array(paint.buffer, 0, 3 * w),
        rows: { width: w, height: 1, bpp: 24, buffer: paint.buffer },
        steps: null, stepsSpan: -1, stepsWidth: -1,
      };
      this.ramp = r;
    }
    if (r.stepsSpan !== span || r.stepsWidth !== width) {
      // One copy shows at most w columns, from any of the span's phases.
      const count = span ? Math.min(width, w + span - 1) : width;
      r.steps = null;
      if (count > 0 && count <= STEPS_MAX) {
        const bytes = new Uint8Array(3 * count);
        ink.steps(bytes, count, span, width);
        r.steps = { width: count, height: 1, bpp: 24, buffer: bytes.buffer };
      }
      r.stepsSpan = span;
      r.stepsWidth = width;
    }
    const paint = r.paint;
    const stencil = r.stencil;
    const steps = r.steps;
    const shift = (speed * f.shownMs) / 1000;
    const lines = this.lines;
    const xs = this.xs;
    const y = (h - this.kit.capHeight(this.font)) >> 1;
    stencil.setColor(KEY);
    stencil.fillRect(0, 0, w - 1, h - 1);
    stencil.setColor(HOLE);
    for (let n = 0; ; n++) {
      const x = this.track.copyX(f.shownMs, n);
      if (isNaN(x)) break;
      const first = Math.max(0, x);
      const last = Math.min(w - 1, x + width - 1);
      if (steps) {
        if (first <= last) {
          paint.setClipRect(first, 0, last, 0);
          // Column col shows triplet col - x, or with a span one a whole number of spans on.
          paint.drawImage(steps, x < 0 && span ? x + span * Math.floor(-x / span) : x, 0);
        }
      } else {
        for (let col = first; col <= last; col++) {
          const k = col - x;
          let wire = span ? ink.tone(256 * (k / span - shift)) : ink.along(width > 1 ? k / (width - 1) : 0);
          if (wire === KEY) wire ^= 1;
          paint.setColor(wire);
          paint.drawLine(col, 0, col, h - 1);
        }
      }
      for (let i = 0; i < lines.length; i++) this.kit.draw(stencil, lines[i], x + xs[i], y);
    }
    if (steps) {
      // Columns no copy covers keep last frame's bytes: the stencil hides them.
      paint.setClipRect(0, 0, w - 1, h - 1);
      E.mapInPlace(r.row, r.row, span ? ink.mapped(Math.round(-STEPS * shift)) : ink.rampMap());
      const rows = r.rows;
      for (let n = 1; n < h; n *= 2) {
        rows.height = Math.min(n, h - n);
        paint.drawImage(rows, 0, n);
      }
    }
    paint.drawImage(r.stencilImage, 0, 0);
    c.g.drawImage(r.paintImage, 0, 0);
  }
}

const makePage: MakePayloadPage = (p, host) => new PushedPage(p, host);
export default makePage;

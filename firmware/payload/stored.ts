// What a pushed app or a queued notification keeps of its payload once it has been validated
// (payload/validate), and what the page module makes of it (payload/page).
//
// Fifty apps and thirty-two notifications share a few thousand interpreter variables, and every
// object property costs one or two, so the form is lopsided on purpose: the keys that were given
// (defaults are never stored) sit in one compact JSON string, under one-letter names, that is
// parsed only when the page comes on screen or the loop asks for a value; the text is one string with its colour runs in a
// second one; the draw list and the charts are kept as compiled. A typical app then costs one
// object of two or three properties.
import type { Canvas } from "../display/canvas";
import type { FrameContext, Page } from "../apps/types";
import type { TextKit } from "../apps/text-kit";
import type { ScrollSpec } from "../text/scroll-spec";
import type { DrawProgram } from "./draw";
import type { ChartData } from "./chart";
import type { Failure } from "../core/failure";
import { keyName } from "./schema";

export interface StoredPayload {
  /**
   * Every given key other than those below, as JSON (raw UTF-8 bytes, not escapes) in the
   * normalized form of PayloadFields, each named by its one-letter code (payload/schema.ts);
   * absent when no such key was given. Read it through payloadFields.
   */
  k?: string;
  /** The text (fragments joined), as UTF-8 bytes; absent when empty. */
  t?: string;
  /**
   * Only for a fragment array: per run of one colour, 5 bytes: the byte offset in `t` where the
   * run ends (high byte, low byte), then red, green, blue. Neighbouring fragments of one colour
   * are one run.
   */
  r?: string;
  /** The draw list as compiled by payload/draw. */
  d?: DrawProgram;
  /** barChart and lineChart as compiled by payload/chart. */
  b?: ChartData;
  l?: ChartData;
  /** A notification's name, outside `k` so that retracting by name parses nothing. */
  n?: string;
}

/**
 * A palette as stored: a name (a built-in spelled as the API spells it, or a palette file's
 * name), colours spread evenly, or [pos, colour] stops sorted by pos (0-100).
 */
export type StoredPalette = string | number[] | number[][];

/**
 * The keys of `k`, each present only when it was given with a value other than its default.
 * Colours are packed 0xRRGGBB; words are spelled as in the schema; numbers are clamped.
 */
export interface PayloadFields {
  textCase?: "upper" | "asTyped";
  font?: "large";
  /** A colour, or "palette". */
  textColor?: number | "palette";
  textBlinkMs?: number;
  textFadeMs?: number;
  textCenter?: false;
  /** Only the fields that were given; the rest follow the device-wide scroll setting. */
  scroll?: Partial<ScrollSpec>;
  textOffsetX?: number;
  textInFront?: true;
  icon?: string;
  iconMode?: "pushOnce" | "push";
  iconOffsetX?: number;
  backgroundColor?: number;
  chartAutoscale?: false;
  chartColor?: number | "palette";
  /** 0-100; absent when off. */
  progress?: number;
  progressColor?: number | "palette";
  progressTrackColor?: number;
  effect?: string;
  effectSpeed?: number;
  palette?: StoredPalette;
  paletteBlend?: false;
  paletteSpan?: number;
  paletteSpeed?: number;
  overlay?: string;
  /** Pushed apps only (a notification accepts the key and drops it). */
  lifetimeMs?: number;
  lifetimeExpiry?: "mark";
  durationMs?: number;
  repeat?: number;
  hold?: true;
  stack?: false;
  wakeup?: true;
  /** Stored as it was sent, unchecked. */
  sound?: unknown;
  soundRtttl?: string;
  soundLoop?: true;
}

/** The given keys of a stored payload, parsed afresh (the caller keeps it only while needed). */
export function payloadFields(p: StoredPayload): PayloadFields {
  const out: { [name: string]: unknown } = {};
  if (!p.k) return out;
  const coded = JSON.parse(p.k) as { [code: string]: unknown };
  for (const code in coded) out[keyName(code)] = coded[code];
  return out;
}

/** What the page module is handed besides the payload: the resident text code. */
export interface PayloadHost {
  text: TextKit;
  /** The panel's width in pixels (what effects and overlays are made for). */
  width: number;
}

/** A pushed app's or notification's page (payload/page). */
export interface PayloadPage extends Page {
  /**
   * Scroll passes the text has completed at f.shownMs (exits for wrap, folds for loop, round
   * trips for bounce), for `repeat`; -1 while the text does not move (it fits, the mode is
   * static, or the speed is 0), when repeat has nothing to count and durationMs decides.
   */
  passes(f: FrameContext): number;
  draw(c: Canvas, f: FrameContext): void;
  /**
   * Frames the page from now on with the stale mark (lifetimeExpiry "mark"): over the text and
   * decorations, under the icon and the overlay.
   */
  markStale(): void;
}

/** The default export of payload/page. */
export type MakePayloadPage = (p: StoredPayload, host: PayloadHost) => PayloadPage;

/** The default export of payload/validate: a request body as stored, or the first failure. */
export type ValidatePayload = (body: unknown, notification: boolean) => StoredPayload | Failure;

// What the weather overlays share: falling drops drawn over the finished page, the palette places
// their tones come from, and lightning's timing.
//
// The panel is cut into lanes two columns wide (with a few more columns to the left when drops
// drift right, so that drifting streaks also enter at the left edge). Each lane runs through
// cycles of `period` steps, staggered against its neighbours'; a hash of the step a cycle starts
// at decides, for each lane starting one then, whether that cycle carries a drop, how it looks
// (which of the lane's two columns; a flake's brightness and the phase of its rocking) and how
// many steps it waits before it enters at the top. A cycle is long enough for its drop to leave at
// the bottom before the next one starts, so a lane holds one drop at a time, and a frame is a
// function of the step alone. Since every cycle is hashed anew, the rain never falls into a
// repeating pattern.
//
// Drawing: a row of lanes is a string, one character a lane, drawn in a glyph font whose glyphs
// are a lane's cell with one pixel lit: native code paints the lit pixels of every lane at once in
// the full colour (a one-bit image would keep only 16 bits of it) and leaves the page visible
// around them. See fall for how the characters say where each drop is. A frame is a few native
// calls whatever the rain's density; a step on codes only the lanes whose new cycle starts then
// (one or two, from one hash), a jump to another moment every lane (a hash a phase). What is kept
// between frames is the drawing of the step drawn last, which any step can replace.
//
// The tones are palette places a quarter, half and three quarters of the way along (64 dim, 128
// middle, 192 bright). The stock texts hold each tone in a flat band (0-30 %, 40-60 %, 70-100 %)
// that its place falls inside whether the ink blends or not; a given palette recolours the tones
// with its own colours at those places.
import type { Effect } from "../effects/types";
import { hash } from "../effects/noise";

/**
 * The drops of one kind of weather falling over a w x h page:
 * - rate: steps a second (at speed 1); a step moves every drop one row down;
 * - tail: rows of tail above a drop's head, drawn in the middle tone (the head is bright);
 * - slant: rows of fall per column of drift to the right, at least `tail`; 0 falls plumb;
 * - flakes: single-pixel flakes that rock a column to the right and back every four rows, bright
 *   or dim at random;
 * - spare: the longest wait of a lane, in steps, between one drop leaving and the next entering
 *   (at most 7);
 * - chance: out of 256, how often a lane's cycle carries a drop;
 * - lightning: now and then the whole panel flashes white instead (see flashing).
 *
 * A lane's character codes its drop: the step it enters at, counted back from a reference step
 * s0, and its look, as top - (enter - s0) * looks + look. With the font starting at character
 * top - (s - s0) * looks, the character shows the glyph of the head's row at step s, s - enter:
 * the characters stay as they are while the drops fall, and only a lane that starts a cycle gets
 * a new one. Glyph y * looks + look of the font is a lane's cell with the tail (or, with no
 * tail, the head) of a drop of that look whose head is on row y, each pixel in the column it takes
 * there: its own (look 0 or 1) moved right by the drift, or rocked (flakes, whose look is the phase
 * of their rocking). Characters below the font's first draw nothing (a drop still waiting above
 * the panel), nor do those past its last glyph (a drop that has left, and 255, no drop). The
 * codes stay between 11 (above drawString's inline image, 0, and new line, 10) and 255 for
 * `reach` steps after s0, then they are made again from scratch; that leaves room for pages up to
 * 40 rows high.
 */
export function fall(w: number, h: number, rate: number, tail: number, slant: number, flakes: boolean, spare: number,
  chance: number, seed: number, lightning: boolean): Effect {
  const looks = flakes ? 4 : 2;
  // A cell holds what one lane's drop can light: its two columns, and the columns it drifts into;
  // lane i is drawn in string i % groups, whose cells are 2 * groups wide.
  const groups = ((slant ? Math.floor((h - 1) / slant) : 0) + 3) >> 1;
  // Columns left of the panel, for streaks that drift in; drawString skips a character that
  // starts on the last column, so no cell may: cells start on columns of the parity of -left.
  let left = slant ? Math.floor((h - 1) / slant) : 0;
  if ((left ^ w) & 1) left++;
  const lanes = Math.ceil((w + left) / 2);
  // Code slots per string (the first string's lanes); a row of them for the bright flakes and one
  // for the dim ones, one for any other drops.
  const per = Math.ceil(lanes / groups);
  const period = h + tail + spare;
  // Lane i's cycles start at the steps of phase i * jump (modulo the period): neighbours far apart,
  // and the lanes of phase p are p * back, p * back + period ... (back being jump's inverse).
  let back = 0;
  for (let jump = Math.round(period * 0.38); !back; jump++) {
    for (let b = 1; b < period || b === 1; b++) {
      if ((jump * b) % period === 1 % period) {
        back = b;
        break;
      }
    }
  }
  const top = 255 - period * looks;
  const reach = Math.floor((top - 11) / looks) - spare;
  // Steps are counted modulo a multiple of the period, so that they stay small integers.
  const wrap = period * Math.floor(0x40000000 / period);
  const codes = new Uint8Array((flakes ? 2 : 1) * groups * per);
  // The glyph font, one bit a pixel, column after column, most significant bit first, as
  // Graphics.setFontCustom takes it: glyph y * looks + look holds the tail of a drop of that look
  // whose head is on row y (y from 0 to h + tail - 1), or with no tail, its head. Made in a
  // function of its own, so that the bytes it is built on are gone once it is.
  const font = ((): string => {
    const width = 2 * groups;
    const bits = new Uint8Array(((h + tail) * looks * width * h + 7) >> 3);
    for (let head = 0; head < h + tail; head++) {
      for (let look = 0; look < looks; look++) {
        for (let y = head - tail; y <= (tail ? head - 1 : head); y++) {
          if (y < 0 || y >= h) continue;
          const x = flakes ? ((y + look) >> 1) & 1 : look + (slant ? Math.floor(y / slant) : 0);
          const b = ((head * looks + look) * width + x) * h + y;
          bits[b >> 3] |= 0x80 >> (b & 7);
        }
      }
    }
    return E.toString(bits);
  })();
  // The strings of the codes, row by row, string by string.
  const texts: string[] = [];
  // The reference step, the step drawn last, and lightning's spell and its hash (flashing).
  let s0 = 0;
  let step = 0;
  const kept = lightning ? new Int32Array(2) : undefined;

  /**
   * Codes, at step s, the current cycle of the lanes of `n` phases from phase p on: those that
   * started a cycle at one of the n steps up to s, or with n = period, all of them. Returns the
   * strings it changed, a bit each.
   */
  const renew = (s: number, p: number, n: number) => {
    let changed = 0;
    for (; n > 0; n--) {
      const start = s - ((s - p + period) % period);
      // One hash for the lanes starting a cycle together, 16 bits a lane: noise.ts hash is
      // xorshift, linear in the bits of its input, so consecutive starts would give related values
      // (the rain would come and go in waves); the carries of a multiplication break that.
      let r = hash((start * 0x2c1b5) | 0, seed);
      for (let i = (p * back) % period, k = 0; i < lanes; i += period, k++) {
        if (k && !(k & 1)) r = hash(r, seed);
        const v = k & 1 ? r >>> 16 : r;
        const slot = (i % groups) * per + ((i / groups) | 0);
        const dim = flakes ? (v >> 13) & 1 : 0;
        const enter = start + (((v >> 8) & 7) % (spare + 1));
        codes[slot + dim * groups * per] = (v & 255) < chance ? top - (enter - s0) * looks + ((v >> 11) & (looks - 1)) : 255;
        if (flakes) codes[slot + (1 - dim) * groups * per] = 255;
        changed |= (flakes ? (1 << groups) | 1 : 1) << (i % groups);
      }
      p = p + 1 < period ? p + 1 : 0;
    }
    return changed;
  };
  /** The strings of the codes, those whose bit is set in `changed`. */
  const spell = (changed: number) => {
    for (let k = 0; changed; k++, changed >>= 1) {
      if (changed & 1) texts[k] = E.toString(codes.subarray(k * per, k * per + Math.ceil((lanes - (k % groups)) / groups)));
    }
  };
  // The first step is made here, outside frames, so that a page's first frame is as quick as the rest.
  spell(renew(0, 0, period));
  return {
    draw: (g, t, ink) => {
      if (lightning && flashing(t, kept)) {
        // The flash covers everything, white whatever the palette.
        g.setColor(ink.rgb(0xffffff));
        g.fillRect(0, 0, w - 1, h - 1);
        return;
      }
      let s = Math.floor((t * rate) / 1000) % wrap;
      if (s < 0) s = 0;
      if (s !== step) {
        // Steps on within reach: the lanes whose cycle starts at one of them (those of their
        // phases). Anything else is coded from scratch, from a new reference step.
        if (s > step && s - s0 <= reach && s - step < period) spell(renew(s, (step + 1) % period, s - step));
        else {
          s0 = s;
          spell(renew(s, 0, period));
        }
        step = s;
      }
      const first = top - (s - s0) * looks;
      g.setFontAlign(-1, -1, 0);
      // The heads, bright: with tails, drawn as the tail of the drop a row lower, whose bottom pixel
      // is where the head is; then the tails over all of those but the head, in the middle tone.
      for (let pass = 0; pass < (tail ? 2 : 1); pass++) {
        g.setColor(ink.tone(pass ? 128 : 192));
        g.setFontCustom(font, tail && !pass ? first - looks : first, 2 * groups, h);
        for (let j = 0; j < groups; j++) g.drawString(texts[j], 2 * j - left, 0);
      }
      if (flakes) {
        g.setColor(ink.tone(64));
        g.drawString(texts[1], -left, 0);
      }
      // Back to the built-in font, which lets go of the overlay's glyphs.
      g.setFont("4x6");
    },
  };
}

/**
 * Whether lightning lights the panel at time `t`: a spell of 3.5 s passes without a strike
 * one time in four, else it strikes once at a random moment, a third of the time twice in quick
 * succession, so strikes come irregularly a few seconds apart. `kept`, if given, keeps the last
 * spell's hash from call to call (a spell lasts a hundred frames and more).
 */
export function flashing(t: number, kept?: Int32Array): boolean {
  // Kept here rather than at the top level, where they would hold interpreter variables for as
  // long as the overlay is loaded.
  /** Lightning's clock (speed-scaled ms): a spell of this length holds at most one strike. */
  const spell = 3500;
  /** How long a flash lasts, and when the second flash of a double strike starts after the first. */
  const flash = 90;
  const second = 220;
  const n = Math.floor(t / spell);
  let r = 0;
  // kept holds n + 1 (0 for nothing kept) and the hash of spell n.
  if (kept && kept[0] === n + 1) r = kept[1];
  else {
    // Hashed twice with a sum between: noise.ts hash is xorshift, linear in the bits of its input,
    // so neighbouring spells would get related values; the carries of the sum break that.
    r = hash((hash(n, 0x7a11) + n * 0x61c88647) | 0, 0x7a11);
    if (kept) {
      kept[0] = n + 1;
      kept[1] = r;
    }
  }
  if ((r & 3) === 0) return false;
  const since = t - n * spell - ((r >>> 2) % (spell - second - flash));
  if (since < 0) return false;
  if (since < flash) return true;
  return ((r >>> 16) % 3) === 0 && since >= second && since < second + flash;
}

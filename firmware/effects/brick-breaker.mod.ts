// BrickBreaker: three rows of bricks at the top, a white ball, a grey paddle on the bottom row
// that is always under the ball. The ball moves on diagonals a pixel a step, bounces off the
// sides, the top and the paddle, and off every brick it runs into, which breaks; once the last
// brick is gone it bounces round the empty field a little and the game starts again. Fixed
// colours: the palette plays no part.
//
// A frame is a function of the step: the ball's column never depends on the bricks (they turn
// it up or down only), and the game is played through once when the effect is made, keeping for
// each hit its step and the ball's vertical phase after it. A frame counts the hits before its
// step, which give the bricks still standing and the ball's row. The wall's holes are kept as a
// one-bit picture, brought up to date only when the count of hits changes.
import type { EffectModule } from "./types";
import { scaleWire, steps } from "./pace";
import { roundTrip } from "./bounce";

/** Pixels of travel a second, the pace of the other effects. */
const RATE = 10;
const ROWS = 3;
/** Brick width, and brick width plus the gap to the next. */
const BRICK = 3;
const PITCH = 4;
const PADDLE = 5;
/** Round trips of the ball after the last hit before the game starts again. */
const AFTER = 2;
/** A game that has not ended after this many steps starts again (none comes near it). */
const LONGEST = 30000;
/** The brick rows' colours, top to bottom. */
const TOP_ROW = 0xff2000;
const MIDDLE_ROW = 0xffa000;
const BOTTOM_ROW = 0x20d020;
const BALL = 0xffffff;
/** The paddle is the ball's white dimmed on the wire: grey. */
const PADDLE_LEVEL = 0.4;

/**
 * Plays a game on a w x h page with `across` bricks a row from column `left`, the ball starting
 * on the paddle at column `startX` on its way up and to the right. Hit i is at step at[i] (hits
 * never made are at 65535, a step never reached), breaks brick[i], and from it the ball's row
 * at step u is bounce(phase[i] + u - at[i], h - 1). Returns the steps from the start of a game
 * to the start of the next.
 */
function play(w: number, h: number, across: number, left: number, startX: number, at: Uint16Array, phase: Uint8Array,
  brick: Uint8Array): number {
  const count = across * ROWS;
  at.fill(65535);
  // The ball's rows are all but the paddle's: n of them, a round trip of `trip` steps; across,
  // a round trip of `span`. Phases as in bounce(), the arithmetic written out: this runs for
  // every step the ball spends among the bricks.
  const n = h - 1;
  const trip = roundTrip(n);
  const span = roundTrip(w);
  // Cells of the brick rows hold their brick's number + 1.
  const cells = new Uint8Array(w * ROWS);
  for (let b = 0; b < count; b++) {
    const first = Math.floor(b / across) * w + left + (b % across) * PITCH;
    cells.fill(b + 1, first, first + BRICK);
  }
  let from = 0;
  let now = n - 1;
  let hits = 0;
  let u = 0;
  while (trip && span && u < LONGEST) {
    const q = (now + u - from) % trip;
    if ((q < n ? q : trip - q) > ROWS) {
      // Below the bricks nothing can happen: on to the step it is back at row ROWS going up.
      u += (2 * trip - ROWS - q) % trip;
      continue;
    }
    const q1 = q + 1 === trip ? 0 : q + 1;
    const ny = q1 < n ? q1 : trip - q1;
    const xq = (u + 1 + startX) % span;
    const cell = ny < ROWS ? cells[ny * w + (xq < w ? xq : span - xq)] : 0;
    if (!cell) {
      u++;
      continue;
    }
    // It runs into brick cell - 1, which breaks, and turns back up or down (at the top row it
    // cannot, and goes on into the gap the brick left).
    const b = cell - 1;
    const first = Math.floor(b / across) * w + left + (b % across) * PITCH;
    cells.fill(0, first, first + BRICK);
    from = u;
    now = (trip - q) % trip;
    at[hits] = u;
    phase[hits] = now;
    brick[hits] = b;
    if (++hits === count) return u + AFTER * trip;
  }
  return LONGEST;
}

const brickBreaker: EffectModule = {
  stock: "FF2000 FFA000 20D020 FFFFFF",
  make: (w, h) => {
    const across = Math.floor((w + PITCH - BRICK) / PITCH);
    const left = (w - (across * PITCH - (PITCH - BRICK))) >> 1;
    const startX = w >> 1;
    const count = across * ROWS;
    const at = new Uint16Array(count);
    const phase = new Uint8Array(count);
    const brick = new Uint8Array(count);
    const length = play(w, h, across, left, startX, at, phase, brick);
    // The wall's holes: a set bit for every pixel of the brick rows that is not a standing brick
    // (a gap, or a broken brick), as they are after the first `shown` hits. The rows are filled
    // in their colours and the holes drawn over them in black (a one-bit image draws its set bits
    // in only 16 bits of the colour, so black is the one colour it can draw on a 24-bit frame).
    const bits = new Uint8Array((w * ROWS + 7) >> 3);
    const holes: GraphicsImage = { width: w, height: ROWS, bpp: 1, transparent: 0, buffer: bits.buffer };
    // The holes of the whole wall: the gaps between bricks.
    const wall = new Uint8Array(bits.length);
    for (let p = 0; p < w * ROWS; p++) {
      const x = (p % w) - left;
      if (x < 0 || x >= across * PITCH || x % PITCH >= BRICK) wall[p >> 3] |= 0x80 >> (p & 7);
    }
    bits.set(wall);
    let shown = 0;
    // The ball's round trips across and up and down (bounce.ts), and the white the paddle's grey
    // was last made from.
    const span = roundTrip(w);
    const trip = roundTrip(h - 1);
    let white = -1;
    let grey = 0;
    return {
      draw: (g, t, ink) => {
        const s = steps(t, RATE) % length;
        let i = shown;
        while (i < count && at[i] <= s) i++;
        while (i > 0 && at[i - 1] > s) i--;
        if (i < shown) {
          bits.set(wall);
          shown = 0;
        }
        for (; shown < i; shown++) {
          const first = Math.floor(brick[shown] / across) * w + left + (brick[shown] % across) * PITCH;
          for (let p = first; p < first + BRICK; p++) bits[p >> 3] |= 0x80 >> (p & 7);
        }
        g.setColor(0);
        g.fillRect(0, ROWS, w - 1, h - 1);
        g.setColor(ink.rgb(TOP_ROW));
        g.fillRect(0, 0, w - 1, 0);
        g.setColor(ink.rgb(MIDDLE_ROW));
        g.fillRect(0, 1, w - 1, 1);
        g.setColor(ink.rgb(BOTTOM_ROW));
        g.fillRect(0, 2, w - 1, 2);
        g.setColor(0);
        g.drawImage(holes, 0, 0);
        // Where the ball is (bounce() written out, the phases never negative): across from
        // startX, and up and down from the last hit (before the first, on its way up from the
        // paddle: phase h - 2 of h - 1 rows).
        let x = span ? (s + startX) % span : 0;
        if (x >= w) x = span - x;
        let y = trip ? (i ? phase[i - 1] + s - at[i - 1] : h - 2 + s) % trip : 0;
        if (y >= h - 1) y = trip - y;
        const p = Math.max(0, Math.min(w - PADDLE, x - (PADDLE >> 1)));
        const ball = ink.rgb(BALL);
        if (ball !== white) {
          white = ball;
          grey = scaleWire(ball, PADDLE_LEVEL);
        }
        g.setColor(grey);
        g.fillRect(p, h - 1, p + PADDLE - 1, h - 1);
        g.setPixel(x, y, ball);
      },
    };
  },
};
export default brickBreaker;

// What only a change of page needs: the transition made ahead for it and its set-up, the one
// playing, the snapshots of both pages and the frames of the transition between them. The engine
// loads this (kit()) with the second page slot once the next page is wanted, and drops both in the
// first frame after the change that finds no next page: a page standing alone on screen holds
// none of it.
import type { Change, DisplayEngine, Surfaces } from "./engine";
import type { Canvas } from "./canvas";
import type { FrameContext, LoopApp } from "../apps/types";
import { loadTransition, transitionFailed } from "./transitions";
import { EMPTY, SNAPSHOTS } from "./slot-codes";


const makeChange = (e: DisplayEngine): Change => {
  const w = e.width;
  const h = e.frameG.getHeight();
  const loop = e.parts.loop;
  const ctx = e.ctx;

  /** `app` drawn whole into slot canvas `c`, at `shownMs` when given. */
  const drawPage = (c: Canvas, app: LoopApp, shownMs?: number): void => {
    c.g.clear();
    if (shownMs !== undefined) ctx.shownMs = shownMs > 0 ? shownMs : 0;
    app.draw(c, ctx);
  };

  /** One slice of the next transition's set-up; one that throws makes the change a cut. */
  const prepare = (): void => {
    const t = c.next;
    try {
      c.nextReady = !t || !t.prepare || t.prepare();
    } catch (x) {
      transitionFailed(c.nextIndex, x, e);
      c.next = null;
      c.nextReady = true;
    }
  };

  /** Draws the snapshots of both pages of the change that started at the loop's startedAt(). */
  const snapshots = (s: Surfaces, from: LoopApp, to: LoopApp, now: number): void => {
    // The old page keeps its slot when it was cached there: only its moving part is added.
    const a = e.slotApp[1] === from ? 1 : 0;
    ctx.shownMs = loop.shownMs(now);
    const held = e.slotApp[a] === from && e.slotEpoch[a] === e.epoch && from.stillKey &&
      e.slotKey[a] === from.stillKey(ctx);
    if (held) (from.drawMoving as (c: Canvas, f: FrameContext) => void)(s.slots[a], ctx);
    else drawPage(s.slots[a], from);
    // The new page's still part may be there already (predraw): then only its moving part.
    const b = 1 - a;
    const arriving = loop.incomingShownMs(now);
    ctx.shownMs = arriving > 0 ? arriving : 0;
    const ready = e.slotApp[b] === to && e.slotEpoch[b] === e.epoch && to.stillKey &&
      e.slotKey[b] === to.stillKey(ctx);
    if (ready) (to.drawMoving as (c: Canvas, f: FrameContext) => void)(s.slots[b], ctx);
    else drawPage(s.slots[b], to, arriving);
    // Snapshots, not still parts: neither slot may serve as a cache afterwards.
    e.hold(0, null, EMPTY);
    e.hold(1, null, EMPTY);
    c.snapshotOf = loop.startedAt();
    c.snapFrom = a;
  };

  const c: Change = {
    next: null,
    nextIndex: -1,
    pickedFor: "",
    nextReady: true,
    running: null,
    snapshotOf: NaN,
    snapFrom: 0,
    prepare,

    pick: (): void => {
      c.pickedFor = e.parts.settings().transitionEffect;
      const i = e.parts.pick();
      if (i === c.nextIndex) return;
      // What was made before goes first.
      c.next = null;
      const t = loadTransition(i, w, h, e.parts.panel.scratch, e);
      c.next = t;
      c.nextIndex = i;
      c.nextReady = !t || !t.prepare;
    },

    take: (): number => {
      if (c.nextIndex < 0) c.pick();
      while (!c.nextReady) prepare();
      const i = c.nextIndex;
      c.running = c.next;
      c.next = null;
      c.nextIndex = -1;
      return i;
    },

    /**
     * Both pages are drawn once when the transition starts and stand still while it runs: a frame
     * of a transition then costs only its composition. Drawing both takes up to twice a page's
     * frame, so on the LEDs the first frame of a change shows the page being left as it is, and
     * the snapshots are drawn right after that frame (a capture draws them at once).
     */
    draw: (s: Surfaces, from: LoopApp, to: LoopApp, now: number): void => {
      const started = loop.startedAt();
      if (started !== c.snapshotOf) {
        if (s !== e.live) snapshots(s, from, to, now);
        else {
          // After the frame: the snapshots of this change, if it still runs.
          e.later(SNAPSHOTS, () => {
            if (loop.incoming() === to && loop.current() === from && loop.startedAt() === started && started !== c.snapshotOf) {
              snapshots(e.live, from, to, now);
            }
          });
          ctx.shownMs = loop.shownMs(now);
          if (from.stillKey) e.cachedPage(s, from);
          else from.draw(s.frame, ctx);
          return;
        }
      }
      const a = c.snapFrom;
      const t = loop.progress(now);
      const fromImage = e.slotImage[a];
      const toImage = e.slotImage[1 - a];
      const tr = c.running;
      // Full white as the panel shows it, for the transitions that flash.
      s.frame.color(0xffffff);
      if (tr) {
        try {
          tr.draw(e.frameG, fromImage, toImage, t, loop.reverse);
          return;
        } catch (x) {
          transitionFailed(loop.effect, x, e);
          c.running = null;
          e.frameG.setClipRect(0, 0, w - 1, h - 1);
        }
      }
      // A cut: the old page until the new one has landed.
      e.frameG.drawImage(t < 1 ? fromImage : toImage, 0, 0);
    },
  };
  return c;
};
export default makeChange;

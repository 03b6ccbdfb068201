// The notifications: a queue whose front covers the loop's page (the loop keeps turning behind it)
// until its time is up, it is dismissed, or a newer one replaces it; then the next one comes at
// once. The queue, its timing and its drawing are all that stays in memory; taking requests is done
// by the handler modules of this folder.
//
// Pages are made outside frames: the front's and the next one's, after any change of the queue
// (in the request that made it, or right after the frame in which the front ended), so that the
// front can change inside a frame without loading anything.
import type { Canvas } from "../display/canvas";
import type { Cover, FrameContext } from "../apps/types";
import type { AppLoop } from "../apps/loop";
import type { PayloadPage, StoredPayload } from "../payload/stored";
import { timeUp } from "../apps/dwell";
import { dropPayloadPage, makePayloadPage } from "../apps/payload-app";

/**
 * One notification. Beside its payload only what was given is kept, as small integers: an
 * absent property costs nothing.
 */
export interface Notice {
  p: StoredPayload;
  /** Its page, made while it is first or second in the queue. */
  pg?: PayloadPage;
  /** durationMs and repeat, when given. */
  du?: number;
  rp?: number;
  /** 1 for hold: it stays until dismissed. */
  hd?: number;
  /** 1 for wakeup: it lights a dark display for itself. */
  wk?: number;
}

/** Where the display's power is switched (the runtime). */
export interface PowerSwitch {
  matrixPower: boolean;
}

export class NoticeQueue implements Cover {
  items: Notice[];
  /** When the front came on screen; NaN until the first frame that shows it. */
  since: number;
  /**
   * Present (true) while the front lit the display itself, which goes dark again when it ends;
   * absent otherwise, as an absent property costs no variable.
   */
  declare private woke?: true;

  constructor(private loop: AppLoop, private power: PowerSwitch) {
    this.items = [];
    this.since = NaN;
  }

  /** Device state's currentApp: the loop's app, which a notification does not change. */
  get name(): string {
    const a = this.loop.selected();
    return a ? a.name : "";
  }

  update(f: FrameContext, appDurationMs: number): void {
    let n = this.items[0];
    if (!n) return;
    if (!isNaN(this.since)) {
      f.shownMs = f.now - this.since;
      if (n.hd || !timeUp(f, appDurationMs, n.du || 0, n.rp || 0, n.pg)) return;
      this.drop(0);
      n = this.items[0];
      if (!n) return;
      // The next one comes in this very frame (its page was made while it waited second); the
      // one after it has its page made once the frame is done.
      this.loop.later();
    }
    this.since = f.now;
    if (n.wk && !this.power.matrixPower) {
      this.power.matrixPower = true;
      this.woke = true;
    }
  }

  draw(c: Canvas, f: FrameContext): void {
    const n = this.items[0];
    if (n && n.pg) n.pg.draw(c, f);
  }

  overlaid(): boolean {
    const n = this.items[0];
    return !!n && !!n.pg && !!n.pg.overlaid && n.pg.overlaid();
  }

  /** Outside frames: the pages of the front and the one after it. */
  prepare(): void {
    const items = this.items;
    for (let i = 0; i < 2 && i < items.length; i++) {
      const n = items[i];
      if (n.pg) continue;
      try {
        n.pg = makePayloadPage(n.p);
      } catch (e) {
        // Without its page a notification shows blank for its time.
      }
    }
  }

  /**
   * Ends notification `i` (0: the one on screen, whose successor starts with the next frame);
   * outside frames, prepare() follows.
   */
  drop(i: number): void {
    const n = this.items[i];
    if (!n) return;
    if (n.pg) dropPayloadPage();
    this.items.splice(i, 1);
    if (i > 0) return;
    this.since = NaN;
    if (this.woke) this.power.matrixPower = false;
    delete this.woke;
  }
}

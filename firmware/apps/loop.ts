// The app loop: which page is on screen, when the next one comes, and the transition between
// them. Every decision is a function of the clock handed in, so a late frame never changes how
// long a page stays or how fast a transition runs.
//
// It also decides which pages are in memory (apps whose page is a module, see module-app.ts): the
// page on screen, the one arriving during a transition, and, for the last LEAD_MS of a page's time,
// the one that comes next, so that it is ready before its transition starts. Every other page is
// released: while a page stands alone on screen, it is the only one in memory. Nothing is loaded
// inside a frame: the frame that finds the change near (update) has the next page prepared right
// after it, as has the frame that lands a page, and a request or a button that moves the loop
// (moves.ts) loads what it brings on screen itself, as it runs outside frames.
//
// What runs only outside frames (choosing and loading the pages, prepare.ts; re-reading the
// rotation, moving the loop on a request or a button, the setup screen) lives in modules that are
// handed the loop: its fields and its resident steps (go, land, later) are theirs to use.
//
// Which apps take turns: the arrangement (`order`, what rotates and in which order, duplicates
// allowed; `off`, what is switched off) picks them by name, so a name may wait for its app. Apps
// the order does not name follow it in the default order (built-ins, then pushed apps by first
// arrival). A cover (the notifications) may hide the page on screen: the loop keeps turning
// behind it.
import type { Cover, FrameContext, LoopApp } from "./types";
import type { Settings } from "../settings/types";
import type Prepare from "./prepare.mod";
import type RefreshLoop from "./refresh.mod";
import { loadModule } from "../platform/modules";

/** What the loop needs of the settings; read on every update, so a change applies at once. */
export interface LoopTiming {
  autoTransition: boolean;
  appDurationMs: number;
  transitionDurationMs: number;
}

/** Chooses the transition for one change of page: an index into TRANSITIONS (1..21). */
export type TransitionChooser = () => number;

/** A step of the clock between two frames larger than this is the clock being set, not time passing. */
const CLOCK_STEP_MS = 60000;

/**
 * How long before its change of page the next page is loaded, and its transition made (the render
 * loop makes it once the next page is known): time for a transition's set-up, a slice per frame.
 */
export const LEAD_MS = 1000;

export class AppLoop {
  /** Every app the device knows, in the default loop order. */
  apps: LoopApp[];
  /** The apps that take turns now (present ones, in order). */
  rotation: LoopApp[];
  index: number;
  shownAt: number;
  /** Index of the page being entered during a transition, else -1. */
  target: number;
  /** Index of the page prepared (loaded) to come next, -1 until it is known or when none can come. */
  ahead: number;
  /** The change of page is near (or the page's time is up): the next page is wanted. */
  soon: boolean;
  /**
   * Present (true) while the preparation (prepare.ts) is queued to run after the frame in
   * progress; absent otherwise, as an absent property costs no variable.
   */
  declare private queued?: true;
  private transitionStart: number;
  private transitionMs: number;
  /** The running transition, an index into TRANSITIONS. */
  effect: number;
  /** The running transition plays backwards (a step back, or transitionDirection reverse). */
  reverse: boolean;
  /** The arranged order (names, duplicates allowed), or null while none was ever set. */
  order: string[] | null;
  /** Names switched off. */
  off: string[];
  /** What may cover the page on screen (set once at boot). */
  cover: Cover | null;
  /** The soonest end of a pushed app's lifetime, in lifetime clock (see life); Infinity for none. */
  expires: number;
  /** The frame context of the dwell checks, made once (pages read shownMs and settings from it). */
  private fc: FrameContext;
  /**
   * The clock lifetimes are measured in, as of the last frame: the frames' clock less the sum of
   * its jumps, so that setting the wall clock (SNTP) neither ends nor stretches a lifetime.
   */
  life: number;
  private jumps: number;

  constructor(apps: LoopApp[], private timing: () => LoopTiming, private choose: TransitionChooser,
    private reverseByDefault: () => boolean) {
    this.apps = apps;
    this.rotation = [];
    this.index = 0;
    // The first page starts its time with the first update.
    this.shownAt = NaN;
    this.target = -1;
    this.ahead = -1;
    this.soon = false;
    this.transitionStart = 0;
    this.transitionMs = 0;
    this.effect = 0;
    this.reverse = false;
    this.order = null;
    this.off = [];
    this.cover = null;
    this.expires = Infinity;
    // Without `local`: no dwell check reads the local time.
    this.fc = { now: 0, shownMs: 0, settings: null as unknown as Settings } as FrameContext;
    this.life = NaN;
    this.jumps = 0;
    // Which apps take turns is worked out by a module (it runs again only on requests).
    loadModule<typeof RefreshLoop>("apps/refresh")(this);
  }

  /**
   * What is on screen: the cover while it covers (the engine asks it for no more than a page and
   * its name), else the selected app.
   */
  current(): LoopApp | null {
    const c = this.cover;
    return c && c.items.length ? c as unknown as LoopApp : this.selected();
  }

  /** The selected app; during a transition the one being left. Null when the loop is empty. */
  selected(): LoopApp | null {
    return this.rotation.length ? this.rotation[this.index] : null;
  }

  /** The app being entered, or null outside a transition (and while covered: it turns unseen). */
  incoming(): LoopApp | null {
    const c = this.cover;
    return this.target >= 0 && !(c && c.items.length) ? this.rotation[this.target] : null;
  }

  /** The app prepared to come after the page on screen, or null (not chosen yet, or none can come). */
  upcoming(): LoopApp | null {
    return this.ahead >= 0 ? this.rotation[this.ahead] : null;
  }

  /** Transition progress 0..1 at `now` (only meaningful while incoming() is not null). */
  progress(now: number): number {
    if (this.transitionMs <= 0) return 1;
    const t = (now - this.transitionStart) / this.transitionMs;
    return t < 0 ? 0 : t > 1 ? 1 : t;
  }

  /** When the running transition started (meaningful while incoming() is not null). */
  startedAt(): number {
    return this.transitionStart;
  }

  /** Milliseconds the current page has been fully on screen (0 while it is still arriving). */
  shownMs(now: number): number {
    const c = this.cover;
    const ms = now - (c && c.items.length ? c.since : this.shownAt);
    // NaN (not shown yet) is 0 too.
    return ms > 0 ? ms : 0;
  }

  /** Milliseconds until the incoming page is fully on screen, as a negative shown time. */
  incomingShownMs(now: number): number {
    return now - (this.transitionStart + this.transitionMs);
  }

  /**
   * Advances time, in a frame: ends a finished transition, wants the next page LEAD_MS before the
   * page's time is up, starts the transition when it is up and the next page is ready. Loads
   * nothing; what a landing or a wanted page needs is prepared after the frame.
   */
  update(now: number): void {
    const step = now - (this.life + this.jumps);
    if (step < 0 || step > CLOCK_STEP_MS) this.jumps += step;
    this.life = now - this.jumps;
    if (this.life >= this.expires) this.later();
    const t = this.timing();
    const f = this.fc;
    f.now = now;
    // The loop is handed the settings object itself: pages asked for their passes read it.
    f.settings = t as Settings;
    if (this.cover) this.cover.update(f, t.appDurationMs);
    if (isNaN(this.shownAt)) this.shownAt = now;
    if (this.target >= 0) {
      if (now - this.transitionStart < this.transitionMs) return;
      this.land(this.target, this.transitionStart + this.transitionMs);
      this.later();
    }
    if (!t.autoTransition || this.index >= this.rotation.length) return;
    const cur = this.rotation[this.index];
    const wanted = this.ahead < 0;
    if (wanted && this.soon) return;
    // Until the next page is chosen, asked as if LEAD_MS later: a page's own dwell (passes of its
    // text) is a function of time too.
    f.shownMs = now - this.shownAt + (wanted ? LEAD_MS : 0);
    if (!(cur.over ? cur.over(f, t.appDurationMs) : f.shownMs >= t.appDurationMs)) return;
    if (wanted) {
      this.soon = true;
      this.later();
      return;
    }
    this.go(this.ahead, now, false, false);
    if (this.target < 0) this.later();
  }

  /** Starts the transition to page `dest` (or lands on it at once); its page is loaded already. */
  go(dest: number, now: number, fast: boolean, backwards: boolean): void {
    const ms = this.timing().transitionDurationMs;
    this.ahead = -1;
    if (fast || ms <= 0) {
      this.land(dest, now);
      return;
    }
    this.target = dest;
    this.transitionStart = now;
    this.transitionMs = ms;
    this.effect = this.choose();
    // A step back plays the transition the other way round.
    this.reverse = this.reverseByDefault() !== backwards;
  }

  land(index: number, at: number): void {
    this.index = index;
    this.shownAt = at;
    this.target = -1;
    this.soon = false;
  }

  /**
   * Queues the loop's preparation (prepare.ts: which pages are in memory, also the cover's) to run
   * after the frame in progress.
   */
  later(): void {
    if (this.queued) return;
    this.queued = true;
    setTimeout(() => {
      delete this.queued;
      loadModule<typeof Prepare>("apps/prepare")(this);
    }, 0);
  }
}

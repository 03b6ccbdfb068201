// The app loop: which page is on screen, when the next one comes, and the transition between
// them. Every decision is a function of the clock handed in, so a late frame never changes how
// long a page stays or how fast a transition runs.
//
// It also decides which pages are in memory (apps whose page is a module, see module-app.ts): the
// page on screen, the one arriving during a transition, and, for the last LEAD_MS of a page's time,
// the one that comes next, so that it is ready before its transition starts. Every other page is
// released: while a page stands alone on screen, it is the only one in memory. Nothing is loaded
// inside a frame: the frame that finds the change near (update) has the next page prepared right
// after it, as has the frame that lands a page, and a request that moves the loop (step, activate)
// loads what it brings on screen itself, as it runs outside frames.
//
// Which apps take turns: the arrangement (`order`, what rotates and in which order, duplicates
// allowed; `off`, what is switched off) picks them by name, so a name may wait for its app. Apps
// the order does not name follow it in the default order (built-ins, then pushed apps by first
// arrival). A cover (the notifications) may hide the page on screen: the loop keeps turning
// behind it.
import type { Cover, FrameContext, LoopApp } from "./types";
import type { LocalTime } from "../time/local";
import type { Settings } from "../settings/types";
import type Expire from "./expire.mod";
import { loadModule } from "../platform/modules";
import { log } from "../logs/log";

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
  private apps: LoopApp[];
  /** The apps that take turns now (present ones, in order). */
  private rotation: LoopApp[];
  private index: number;
  private shownAt: number;
  /** Index of the page being entered during a transition, else -1. */
  private target: number;
  /** Index of the page prepared (loaded) to come next, -1 until it is known or when none can come. */
  private ahead: number;
  /** The change of page is near (or the page's time is up): the next page is wanted. */
  private soon: boolean;
  /** A prepare() is queued to run after the frame that landed a page. */
  private queued: boolean;
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
    this.queued = false;
    this.transitionStart = 0;
    this.transitionMs = 0;
    this.effect = 0;
    this.reverse = false;
    this.order = null;
    this.off = [];
    this.cover = null;
    this.expires = Infinity;
    this.fc = { now: 0, shownMs: 0, local: null as unknown as LocalTime, settings: null as unknown as Settings };
    this.life = NaN;
    this.jumps = 0;
    this.refresh();
  }

  /** Another set of apps takes turns from now on (the setup screen instead of the loop). */
  replace(apps: LoopApp[]): void {
    this.keepOnly(null, null);
    this.apps = apps;
    this.index = 0;
    this.shownAt = NaN;
    this.soon = false;
    this.refresh();
  }

  /**
   * Re-reads which apps take turns (after a change of apps, arrangement or hardware); the page on
   * screen, and one arriving, stay where they are when they still take turns. Runs outside frames
   * (boot, requests): the pages on screen and next are loaded, or with `soon` right after (a
   * request that pushed a large payload has then let go of its parsed body).
   */
  refresh(soon?: boolean): void {
    const current = this.selected();
    const arriving = this.target >= 0 ? this.rotation[this.target] : null;
    const order = this.order || [];
    const next: LoopApp[] = [];
    const off = this.off;
    for (let i = 0; i < order.length; i++) {
      const app = this.find(order[i]);
      if (app && app.present() && off.indexOf(app.name) < 0) next.push(app);
    }
    for (let i = 0; i < this.apps.length; i++) {
      const app = this.apps[i];
      if (app.present() && off.indexOf(app.name) < 0 && order.indexOf(app.name) < 0) next.push(app);
    }
    const old = this.index;
    this.rotation = next;
    this.ahead = -1;
    const at = current ? next.indexOf(current) : -1;
    // A page that left the rotation gives its place to the one that followed it.
    this.index = at >= 0 ? at : old < next.length ? old : 0;
    if (at < 0) {
      this.shownAt = NaN;
      this.soon = false;
    }
    const to = arriving && at >= 0 ? next.indexOf(arriving) : -1;
    this.target = to !== this.index ? to : -1;
    if (soon) this.later();
    else this.prepare();
  }

  /** The known app of that name, present or not, or null. */
  find(name: string): LoopApp | null {
    for (let i = 0; i < this.apps.length; i++) if (this.apps[i].name === name) return this.apps[i];
    return null;
  }

  /** All known apps, present or not, in loop order. */
  all(): LoopApp[] {
    return this.apps;
  }

  /** The apps in the rotation, in order. */
  members(): LoopApp[] {
    return this.rotation;
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
    if (this.ahead < 0) {
      if (this.soon) return;
      // Asked as if LEAD_MS later: a page's own dwell (passes of its text) is a function of time too.
      f.shownMs = now - this.shownAt + LEAD_MS;
      if (!this.timeUp(cur, t.appDurationMs)) return;
      this.soon = true;
      this.later();
      return;
    }
    f.shownMs = now - this.shownAt;
    if (this.timeUp(cur, t.appDurationMs)) {
      this.go(this.ahead, now, false, false);
      if (this.target < 0) this.later();
    }
  }

  /** Whether the time of `cur` on screen is up at the dwell checks' shownMs. */
  private timeUp(cur: LoopApp, appDurationMs: number): boolean {
    const f = this.fc;
    return cur.over ? cur.over(f, appDurationMs) : f.shownMs >= appDurationMs;
  }

  /**
   * Outside frames: releases the pages that left, loads the page on screen, and, once the change
   * is near, chooses and loads the one to come next (skipping apps whose page cannot be loaded).
   * Runs by itself after a frame that landed a page or found the change near; calling it again
   * changes nothing.
   */
  prepare(): void {
    if (this.life >= this.expires) {
      // Lifetimes ran out: a module removes or marks the apps (seldom needed). Not again at every
      // frame should the module be missing.
      this.expires = Infinity;
      try {
        loadModule<typeof Expire>("apps/expire")(this);
      } catch (e) {
        log("lifetimes: " + e);
      }
    }
    if (this.cover) this.cover.prepare();
    const cur = this.selected();
    const inc = this.target >= 0 ? this.rotation[this.target] : null;
    if (cur && cur.load) cur.load();
    // Choosing the next page releases the others first (a page that comes next again, as in a
    // loop of two, stays loaded).
    if (!inc && this.ahead < 0 && this.soon) this.ahead = this.seek(this.index, 1);
    this.keepOnly(cur, inc || this.upcoming());
  }

  /** Brings the named app on screen; false when no app in the rotation has that name. */
  activate(name: string, now: number, fast: boolean): boolean {
    for (let i = 0; i < this.rotation.length; i++) {
      const app = this.rotation[i];
      if (app.name !== name) continue;
      this.settle(now);
      if (i !== this.index) {
        // Asked for by name, it comes even when its page cannot be loaded (it shows blank).
        this.keepOnly(this.selected(), app);
        if (app.load) app.load();
        this.go(i, now, fast, false);
      }
      this.prepare();
      return true;
    }
    return false;
  }

  /**
   * One page forward (delta 1) or back (-1), past pages that cannot be loaded; back plays the
   * transition the other way. Outside frames (a request, a button).
   */
  step(delta: number, now: number, fast: boolean): void {
    if (this.rotation.length < 2) return;
    this.settle(now);
    const to = this.seek(this.index, delta);
    if (to >= 0) this.go(to, now, fast, delta < 0);
    this.prepare();
  }

  /** A request during a transition lands the incoming page first and moves on from there. */
  private settle(now: number): void {
    if (this.target >= 0) this.land(this.target, now);
  }

  /** Starts the transition to page `dest` (or lands on it at once); its page is loaded already. */
  private go(dest: number, now: number, fast: boolean, backwards: boolean): void {
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

  private land(index: number, at: number): void {
    this.index = index;
    this.shownAt = at;
    this.target = -1;
    this.soon = false;
  }

  /** Queues prepare() to run after the frame in progress (also for the cover's pages). */
  later(): void {
    if (this.queued) return;
    this.queued = true;
    setTimeout(() => {
      this.queued = false;
      this.prepare();
    }, 0);
  }

  /**
   * The first page from index `from` in steps of `delta` whose page can be loaded, loaded; -1 when
   * there is none. Outside transitions only: each candidate is loaded after every page but the one
   * on screen was released, so no more than two are ever in memory.
   */
  private seek(from: number, delta: number): number {
    const n = this.rotation.length;
    const cur = this.selected();
    for (let k = 1; k < n; k++) {
      const i = (((from + k * delta) % n) + n) % n;
      const app = this.rotation[i];
      this.keepOnly(cur, app);
      if (!app.load || app.load()) return i;
    }
    this.keepOnly(cur, null);
    return -1;
  }

  /** Releases every app's page but those of `a` and `b`. */
  private keepOnly(a: LoopApp | null, b: LoopApp | null): void {
    const apps = this.apps;
    for (let i = 0; i < apps.length; i++) {
      const app = apps[i];
      if (app !== a && app !== b && app.release) app.release();
    }
  }
}

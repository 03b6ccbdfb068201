// The app loop: which page is on screen, when the next one comes, and the transition between
// them. Every decision is a function of the clock handed in, so a late frame never changes how
// long a page stays or how fast a transition runs.
//
// It also decides which pages are in memory (apps whose page is a module, see module-app.ts): the
// page on screen, the one arriving during a transition, and the one that comes next, which is
// chosen and loaded when a page lands, so that it is ready before its transition starts. Every
// other page is released. Nothing is loaded inside a frame: a page that lands in a frame (update)
// has the next one prepared right after that frame, and a request that moves the loop (step,
// activate) loads what it brings on screen itself, as it runs outside frames.
import type { LoopApp } from "./types";

/** What the loop needs of the settings; read on every update, so a change applies at once. */
export interface LoopTiming {
  autoTransition: boolean;
  appDurationMs: number;
  transitionDurationMs: number;
}

/** Chooses the transition for one change of page: an index into TRANSITIONS (1..21). */
export type TransitionChooser = () => number;

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
  /** A prepare() is queued to run after the frame that landed a page. */
  private queued: boolean;
  private transitionStart: number;
  private transitionMs: number;
  /** The running transition, an index into TRANSITIONS. */
  effect: number;
  /** The running transition plays backwards (a step back, or transitionDirection reverse). */
  reverse: boolean;

  constructor(apps: LoopApp[], private timing: () => LoopTiming, private choose: TransitionChooser,
    private reverseByDefault: () => boolean) {
    this.apps = apps;
    this.rotation = [];
    this.index = 0;
    // The first page starts its time with the first update.
    this.shownAt = NaN;
    this.target = -1;
    this.ahead = -1;
    this.queued = false;
    this.transitionStart = 0;
    this.transitionMs = 0;
    this.effect = 0;
    this.reverse = false;
    this.refresh();
  }

  /** Another set of apps takes turns from now on (the setup screen instead of the loop). */
  replace(apps: LoopApp[]): void {
    this.keepOnly(null, null);
    this.apps = apps;
    this.index = 0;
    this.shownAt = NaN;
    this.refresh();
  }

  /**
   * Re-reads which apps are present; the page on screen stays where it is when it still is. Runs
   * outside frames (boot, configuration): the pages on screen and next are loaded.
   */
  refresh(): void {
    const current = this.current();
    const next: LoopApp[] = [];
    for (let i = 0; i < this.apps.length; i++) if (this.apps[i].present()) next.push(this.apps[i]);
    this.rotation = next;
    this.target = -1;
    this.ahead = -1;
    const at = current ? next.indexOf(current) : -1;
    this.index = at >= 0 ? at : 0;
    this.prepare();
  }

  /** All known apps, present or not, in loop order. */
  all(): LoopApp[] {
    return this.apps;
  }

  /** The apps in the rotation, in order. */
  members(): LoopApp[] {
    return this.rotation;
  }

  /** The selected app; during a transition the one being left. Null when the loop is empty. */
  current(): LoopApp | null {
    return this.rotation.length ? this.rotation[this.index] : null;
  }

  /** The app being entered, or null outside a transition. */
  incoming(): LoopApp | null {
    return this.target >= 0 ? this.rotation[this.target] : null;
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
    const ms = now - this.shownAt;
    // NaN (not shown yet) is 0 too.
    return ms > 0 ? ms : 0;
  }

  /** Milliseconds until the incoming page is fully on screen, as a negative shown time. */
  incomingShownMs(now: number): number {
    return now - (this.transitionStart + this.transitionMs);
  }

  /**
   * Advances time, in a frame: ends a finished transition, starts the next one when the page's time
   * is up and the next page is ready. Loads nothing; what a landing needs is prepared after the frame.
   */
  update(now: number): void {
    if (isNaN(this.shownAt)) this.shownAt = now;
    if (this.target >= 0) {
      if (now - this.transitionStart < this.transitionMs) return;
      this.land(this.target, this.transitionStart + this.transitionMs);
      this.later();
    }
    const t = this.timing();
    if (!t.autoTransition || this.ahead < 0) return;
    if (now - this.shownAt >= t.appDurationMs) {
      this.go(this.ahead, now, false, false);
      if (this.target < 0) this.later();
    }
  }

  /**
   * Outside frames: releases the pages that left, loads the page on screen, and chooses and loads
   * the one to come next (skipping apps whose page cannot be loaded). Runs by itself after a frame
   * that landed a page; calling it again changes nothing.
   */
  prepare(): void {
    const cur = this.current();
    const inc = this.incoming();
    if (cur && cur.load) cur.load();
    // Choosing the next page releases the others first (a page that comes next again, as in a
    // loop of two, stays loaded).
    if (!inc && this.ahead < 0) this.ahead = this.seek(this.index, 1);
    this.keepOnly(cur, inc || this.upcoming());
  }

  next(now: number, fast: boolean): void {
    this.step(1, now, fast);
  }

  previous(now: number, fast: boolean): void {
    this.step(-1, now, fast);
  }

  /** Brings the named app on screen; false when no app in the rotation has that name. */
  activate(name: string, now: number, fast: boolean): boolean {
    for (let i = 0; i < this.rotation.length; i++) {
      const app = this.rotation[i];
      if (app.name !== name) continue;
      this.settle(now);
      if (i !== this.index) {
        // Asked for by name, it comes even when its page cannot be loaded (it shows blank).
        this.keepOnly(this.current(), app);
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
  }

  /** Queues prepare() to run after the frame in progress. */
  private later(): void {
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
    const cur = this.current();
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

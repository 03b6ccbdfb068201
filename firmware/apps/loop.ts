// The app loop: which page is on screen, when the next one comes, and the transition between
// them. Every decision is a function of the clock handed in, so a late frame never changes how
// long a page stays or how fast a transition runs.
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
    this.transitionStart = 0;
    this.transitionMs = 0;
    this.effect = 0;
    this.reverse = false;
    this.refresh();
  }

  /** Another set of apps takes turns from now on (the setup screen instead of the loop). */
  replace(apps: LoopApp[]): void {
    this.apps = apps;
    this.index = 0;
    this.shownAt = NaN;
    this.refresh();
  }

  /** Re-reads which apps are present; the page on screen stays where it is when it still is. */
  refresh(): void {
    const current = this.current();
    const next: LoopApp[] = [];
    for (let i = 0; i < this.apps.length; i++) if (this.apps[i].present()) next.push(this.apps[i]);
    this.rotation = next;
    this.target = -1;
    const at = current ? next.indexOf(current) : -1;
    this.index = at >= 0 ? at : 0;
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

  /** Advances time: ends a finished transition, starts the next one when the page's time is up. */
  update(now: number): void {
    if (isNaN(this.shownAt)) this.shownAt = now;
    if (this.target >= 0) {
      if (now - this.transitionStart < this.transitionMs) return;
      this.land(this.target, this.transitionStart + this.transitionMs);
    }
    const t = this.timing();
    if (!t.autoTransition || this.rotation.length < 2) return;
    if (now - this.shownAt >= t.appDurationMs) this.go(this.index + 1, now, false, false);
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
      if (this.rotation[i].name !== name) continue;
      this.settle(now);
      if (i !== this.index) this.go(i, now, fast, false);
      return true;
    }
    return false;
  }

  /** One page forward (delta 1) or back (-1); back plays the transition the other way. */
  step(delta: number, now: number, fast: boolean): void {
    if (this.rotation.length < 2) return;
    this.settle(now);
    this.go(this.index + delta, now, fast, delta < 0);
  }

  /** A request during a transition lands the incoming page first and moves on from there. */
  private settle(now: number): void {
    if (this.target >= 0) this.land(this.target, now);
  }

  private go(to: number, now: number, fast: boolean, backwards: boolean): void {
    const n = this.rotation.length;
    const dest = ((to % n) + n) % n;
    const ms = this.timing().transitionDurationMs;
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
}

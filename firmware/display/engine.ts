// The render loop: every FRAME_MS it composes one frame (the app loop's page or a transition
// between two pages, then the indicators and the connection dot, or the mood light instead) and
// pushes it to the LEDs. Everything that moves is a function of the clock. A frame allocates
// nothing: buffers, canvases and the frame context are made here, outside frames (the second page
// slot when a change of page is near, see below).
//
// Transitions are modules (transitions.ts). The one the next change of page plays is chosen while
// the page before it is on screen, once the loop has the next page ready (its last LEAD_MS), and
// made then: loaded, with everything it draws with, right after a frame (or in a request that
// changes the page at once), its longer set-up a slice per frame after that. The change takes it as it starts
// (take(), the loop's chooser), so no frame of a transition loads or allocates anything; it is
// dropped once the change has landed. A page standing alone on screen holds no transition. A
// transition that cannot be loaded plays as a cut.
//
// Page slots: a page standing alone keeps its still part in slot 0. What only a change of page
// needs, the second slot (the page to come, then the snapshots of both pages) and change.mod.ts
// (the transitions made ahead and playing, the snapshots, a transition's frames), is made when
// the next page is wanted (its last LEAD_MS, after a frame, or a request that starts a change),
// and given back in the first frame after the change that finds no next page: a page alone on
// screen holds one page buffer and none of that code.
//
// What runs only on requests (a change of settings, regrade.mod.ts; a capture of the screen,
// capture.ts) is kept out of the engine and handed it. The fields those and change.mod.ts read or
// set are not private: a method here for each would stay in memory with the class.
import type { Settings } from "../settings/types";
import type { FrameContext, LoopApp } from "../apps/types";
import type { AppLoop } from "../apps/loop";
import type { Canvas } from "./canvas";
import { drawIndicators, type Indicators } from "./indicators";
import type { Moodlight } from "./moodlight";
import type { LinkHealth } from "./status-dots";
import type { PanelOutput } from "./panel";
import type { BrightnessControl } from "./brightness";
import type { LocalClock } from "../time/clock";
import { newLocalTime } from "../time/local";
import { drawStatusDot } from "./status-dots";
import { Grade, FrameCanvas } from "./grade";
import type { Transition } from "./transitions";
import type { Layer } from "./layer";
import { EMPTY, MAKE_NEXT, PREDRAW } from "./slot-codes";
import type MakeChange from "./change.mod";
import { loadModule } from "../platform/modules";

/** 40 frames a second. */
export const FRAME_MS = 25;
export const PANEL_HEIGHT = 8;

/** Where the engine reports what device state shows (the runtime), and reads the light sensor. */
export interface DisplayReport {
  fps: number;
  brightness: number;
  currentApp: string;
  matrixPower: boolean;
  /** The light sensor's reading 0-4095, or -1 without a sensor. */
  readonly lightRaw: number;
}

export interface EngineParts {
  panel: PanelOutput;
  loop: AppLoop;
  indicators: Indicators;
  moodlight: Moodlight;
  clock: LocalClock;
  /** The POSIX TZ string in force; read every frame so a change applies at once. */
  tz: () => string;
  brightness: BrightnessControl;
  settings: () => Settings;
  colorOrder: string;
  /** The connection dot's input; null hides it (setup screen). */
  health: () => LinkHealth | null;
  report: DisplayReport;
  /**
   * Chooses the transition of the next change of page: an index into TRANSITIONS, Random
   * resolved. Asked while the page before that change is on screen.
   */
  pick: () => number;
  /** The global weather overlay, made for the panel; null when none is set. */
  weather: () => Layer | null;
}

/** The canvases a composition draws through: graded for the LEDs, or ungraded for a capture. */
export interface Surfaces {
  frame: Canvas;
  /** Page slots, one per slotG (the two pages of a transition, or the still part of the page on screen). */
  slots: Canvas[];
}

/** A page slot more: its Graphics, the canvas drawing into it and the image drawing from it. */
function addSlot(e: DisplayEngine): Graphics {
  const g = Graphics.createArrayBuffer(e.width, PANEL_HEIGHT, 24);
  e.slotG.push(g);
  e.live.slots.push(new FrameCanvas(g, e.grade));
  e.slotImage.push({ width: e.width, height: PANEL_HEIGHT, bpp: 24, buffer: g.buffer });
  return g;
}

/** What a change of page needs (change.mod.ts): loaded with the second slot, dropped with it. */
export interface Change {
  /** The transition the next change of page plays, made ahead; null when it plays as a cut. */
  next: Transition | null;
  /** Its index in TRANSITIONS, -1 until it is chosen (again once a change has taken it). */
  nextIndex: number;
  /** The transitionEffect setting the transition made ahead was picked for. */
  pickedFor: string;
  /** Its set-up (prepare) is done. */
  nextReady: boolean;
  /** The transition of the change of page in progress; null for a cut. */
  running: Transition | null;
  /** The change the slots hold snapshots for (its start time), or NaN. */
  snapshotOf: number;
  /** The slot the snapshot of the page being left is in (the other holds the page arriving). */
  snapFrom: number;
  /** Chooses the next transition by the setting in force and makes it. */
  pick(): void;
  /** One slice of the next transition's set-up. */
  prepare(): void;
  /** The loop's chooser (see DisplayEngine.take). */
  take(): number;
  /** A frame of the change from `from` to `to` at `now`. */
  draw(s: Surfaces, from: LoopApp, to: LoopApp, now: number): void;
}

export class DisplayEngine {
  readonly width: number;
  parts: EngineParts;
  frameG: Graphics;
  /** The page slots: slot 0 always, slot 1 while a change of page is near or under way (kit). */
  slotG: Graphics[];
  /**
   * The slots as images, to draw them from: the frames draw the still part of the page on screen
   * so (an image object draws faster than its Graphics), and a transition both pages.
   */
  slotImage: GraphicsImage[];
  /** What each slot holds: the app, its still key, and the grading it was drawn with. */
  slotApp: (LoopApp | null)[];
  slotKey: number[];
  slotEpoch: number[];
  /** Graded for the LEDs. */
  live: Surfaces;
  grade: Grade;
  /** Counts changes of the grading or the settings: a slot drawn under another count is stale. */
  epoch: number;
  /** What the next change of page or the one under way needs, with the second slot; null between. */
  change: Change | null;
  /** The transitions reported as playing as a cut, a bit each (transitions.ts). */
  failed: number;
  ctx: FrameContext;
  gradeDirty: boolean;
  private gradedAt: number;
  private blanked: boolean;
  private frames: number;
  /** When the frame rate's window began (Display.start sets it as the first frame comes). */
  fpsWindowStart: number;
  /** What is queued to run after the frame (PREDRAW, SNAPSHOTS, MAKE_NEXT). */
  private queued: number;
  /** When the last predraw() looked. */
  private predrawnAt: number;
  /**
   * The page a change of page has just brought: its snapshot from that change (the slot other
   * than snapFrom) is shown until its still part is drawn into a slot after the frame (see
   * cachedPage).
   */
  private arrived: LoopApp | null;

  constructor(parts: EngineParts) {
    this.parts = parts;
    this.width = parts.panel.width;
    this.frameG = Graphics.createArrayBuffer(this.width, PANEL_HEIGHT, 24);
    this.slotG = [];
    this.slotImage = [];
    this.slotApp = [null, null];
    this.slotKey = [EMPTY, EMPTY];
    this.slotEpoch = [0, 0];
    this.grade = new Grade();
    this.live = { frame: new FrameCanvas(this.frameG, this.grade), slots: [] };
    addSlot(this);
    this.epoch = 1;
    this.change = null;
    this.failed = 0;
    this.ctx = { now: 0, shownMs: 0, local: newLocalTime(), settings: parts.settings() };
    this.gradeDirty = true;
    this.gradedAt = -1;
    this.blanked = false;
    this.frames = 0;
    this.fpsWindowStart = 0;
    this.queued = 0;
    this.predrawnAt = 0;
    this.arrived = null;
  }

  /**
   * The loop's chooser, called as a change of page starts: the transition made ahead, which then
   * plays. A change that comes before it is ready (one that follows another at once, in a
   * request) has it made here.
   */
  take(): number {
    return this.kit().take();
  }

  /**
   * What a change of page needs, with the second slot: made if there is none. Outside frames
   * (after one, or in a request), or in the frame that starts a change none was made ahead for.
   */
  kit(): Change {
    let c = this.change;
    if (!c) {
      // Loaded first: a module that cannot be loaded throws before a slot is added.
      const make = loadModule<typeof MakeChange>("display/change");
      addSlot(this);
      c = this.change = make(this);
    }
    return c;
  }

  /** One frame at `now`: advance the loop, compose, push. */
  tick(now: number): void {
    const p = this.parts;
    const report = p.report;
    // Between changes of page, a step toward the next transition; the frame that lands a change
    // comes first, and this runs in the frames after it.
    if (!p.loop.incoming()) this.ahead();
    p.loop.update(now);
    const cur = p.loop.current();
    report.currentApp = cur ? cur.name : "";
    const level = p.moodlight.on ? p.moodlight.brightness : p.brightness.update(now, report.lightRaw);
    report.brightness = level;
    this.frames++;
    const span = now - this.fpsWindowStart;
    if (span >= 1000) {
      report.fps = Math.round((this.frames * 1000) / span);
      this.frames = 0;
      this.fpsWindowStart = now;
    }
    if (!report.matrixPower) {
      if (!this.blanked) p.panel.blank();
      this.blanked = true;
    } else {
      this.blanked = false;
      if (this.gradeDirty || level !== this.gradedAt) {
        this.grade.configure(p.settings(), level, p.colorOrder);
        this.gradeDirty = false;
        this.gradedAt = level;
        this.forget();
      }
      this.compose(this.live, now, true);
      p.panel.push(this.frameG);
      this.queuePredraw(now);
    }
  }

  /**
   * Between changes of page, the page to come next gets its still part drawn ahead, after a
   * frame rather than in the first frame of its transition: a long draw list takes many times a
   * frame's budget. Looked at again when the page to come or the grading changes, and once a
   * second for pages whose still part changes with the time. It goes into the slot the page on
   * screen does not hold its still part in.
   */
  private queuePredraw(now: number): void {
    const loop = this.parts.loop;
    const up = loop.upcoming();
    if ((this.queued & PREDRAW) || !up || !up.stillKey || loop.incoming()) return;
    const b = this.slotApp[1] === loop.current() ? 0 : 1;
    if (this.slotApp[b] === up && this.slotEpoch[b] === this.epoch && now - this.predrawnAt < 1000) return;
    this.predrawnAt = now;
    this.later(PREDRAW, () => {
      const to = loop.upcoming();
      const cur = loop.current();
      if (!to || to === cur || !to.stillKey || !to.drawStill || loop.incoming()) return;
      this.kit();
      this.ctx.shownMs = 0;
      this.ctx.grading = this.epoch;
      this.drawStill(this.slotApp[1] === cur ? 0 : 1, to);
    });
  }

  /** Runs `work` after the frame in progress, unless work of that kind is queued already. */
  later(kind: number, work: () => void): void {
    if (this.queued & kind) return;
    this.queued |= kind;
    setTimeout(() => {
      this.queued &= ~kind;
      work();
    }, 0);
  }

  /**
   * A frame between changes of page does one step toward the next transition: it drops the one
   * that landed (if the frame that landed it did not), or, once the next page is ready, chooses and
   * makes the next, or runs a slice of its set-up. Without a next page (the change landed, a request
   * brought another page on screen, the apps changed) the transition made for it and the second
   * slot are dropped too.
   */
  private ahead(): void {
    const loop = this.parts.loop;
    const c = this.change;
    if (c && c.running) {
      c.snapshotOf = NaN;
      c.running = null;
    } else if (!loop.upcoming()) {
      if (!c) return;
      // Given back, in a frame before the page is drawn: what arrived was shown from its snapshot
      // in the frame that landed it, and none is left to show.
      this.change = null;
      this.slotG.pop();
      this.live.slots.pop();
      this.slotImage.pop();
      this.hold(1, null, EMPTY);
      this.arrived = null;
    } else if (!c || c.nextIndex < 0) {
      // After the frame: the second slot and the next transition, if the next page is still to
      // come and none was made.
      this.later(MAKE_NEXT, () => {
        if (!loop.upcoming() || loop.incoming()) return;
        const made = this.kit();
        if (made.nextIndex < 0 && !made.running) made.pick();
      });
    } else if (!c.nextReady) c.prepare();
  }

  /** Every slot is stale: drawn again before it is used. */
  forget(): void {
    this.epoch++;
    if (this.change) this.change.snapshotOf = NaN;
  }

  compose(s: Surfaces, now: number, cached: boolean): void {
    const p = this.parts;
    const g = this.frameG;
    g.clear();
    if (p.moodlight.on) {
      // Mood light replaces everything, the dots included.
      s.frame.color(p.moodlight.color);
      g.fillRect(0, 0, this.width - 1, PANEL_HEIGHT - 1);
      return;
    }
    const ctx = this.ctx;
    ctx.now = now;
    ctx.settings = p.settings();
    ctx.grading = this.epoch;
    p.clock.setZone(p.tz());
    p.clock.fill(ctx.local);
    const loop = p.loop;
    const cur = loop.current();
    const next = loop.incoming();
    const c = this.change;
    if (cur && next) this.kit().draw(s, cur, next, now);
    else if (c && !isNaN(c.snapshotOf)) {
      // A change of page has landed: its transition, and all it drew with, is given back.
      this.arrived = cur;
      c.snapshotOf = NaN;
      c.running = null;
    }
    if (cur && !next) {
      ctx.shownMs = loop.shownMs(now);
      if (cached && cur.stillKey) this.cachedPage(s, cur);
      else cur.draw(s.frame, ctx);
    }
    // The global overlay goes over whatever is on screen, transitions included, unless the page
    // draws an overlay of its own; it runs on the clock, so it does not restart with each page.
    const weather = p.weather();
    if (weather && !(cur && !next && cur.overlaid && cur.overlaid())) weather.draw(s.frame, now, this.epoch);
    drawIndicators(p.indicators, s.frame, now);
    const health = p.health();
    if (health) drawStatusDot(s.frame, now, health);
  }

  /** The page on screen: its still part from a slot (drawn again when stale), the rest live. */
  cachedPage(s: Surfaces, app: LoopApp): void {
    const ctx = this.ctx;
    const key = (app.stillKey as (f: FrameContext) => number)(ctx);
    let slot = this.slotApp[1] === app ? 1 : 0;
    const stale = this.slotApp[slot] !== app || this.slotKey[slot] !== key || this.slotEpoch[slot] !== this.epoch;
    if (stale && app === this.arrived && s === this.live) {
      // Just arrived: its snapshot from the change for this frame (its moving part held still for
      // it), and its still part drawn after the frame, so that no frame draws a long still part.
      this.frameG.drawImage(this.slotImage[1 - (this.change as Change).snapFrom], 0, 0);
      this.arrived = null;
      // After the frame: its still part into slot 0, if it is still the page on screen.
      setTimeout(() => {
        const loop = this.parts.loop;
        if (loop.current() === app && !loop.incoming()) this.drawStill(0, app);
      }, 0);
      return;
    }
    this.arrived = null;
    if (stale) {
      const c = s.slots[slot];
      c.g.clear();
      (app.drawStill as (c: Canvas, f: FrameContext) => void)(c, ctx);
      this.hold(slot, app, key);
    }
    this.frameG.drawImage(this.slotImage[slot], 0, 0);
    (app.drawMoving as (c: Canvas, f: FrameContext) => void)(s.frame, ctx);
  }

  /** The still part of `app` into slot `slot` (with the frame context as it is), unless held there already. */
  private drawStill(slot: number, app: LoopApp): void {
    if (!app.stillKey || !app.drawStill) return;
    const key = app.stillKey(this.ctx);
    if (this.slotApp[slot] === app && this.slotKey[slot] === key && this.slotEpoch[slot] === this.epoch) return;
    const c = this.live.slots[slot];
    c.g.clear();
    app.drawStill(c, this.ctx);
    this.hold(slot, app, key);
  }

  hold(slot: number, app: LoopApp | null, key: number): void {
    this.slotApp[slot] = app;
    this.slotKey[slot] = key;
    this.slotEpoch[slot] = this.epoch;
  }
}

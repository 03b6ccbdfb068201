// The render loop: every FRAME_MS it composes one frame (the app loop's page or a transition
// between two pages, then the indicators and the connection dot, or the mood light instead) and
// pushes it to the LEDs. Everything that moves is a function of the clock. A frame allocates
// nothing: buffers, canvases and the frame context are made once here.
//
// Transitions are modules (transitions.ts). The one the next change of page plays is chosen while
// the page before it is on screen, once the loop has the next page ready (its last LEAD_MS), and
// made then: loaded, with everything it draws with, right after a frame (or in a request that
// changes the page at once), its longer set-up a slice per frame after that. The change takes it as it starts
// (take(), the loop's chooser), so no frame of a transition loads or allocates anything; it is
// dropped once the change has landed. A page standing alone on screen holds no transition. A
// transition that cannot be loaded plays as a cut.
//
// What runs only on requests (a change of settings, regrade.mod.ts; a capture of the screen,
// capture.ts) is kept out of the engine and handed it.
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
import { loadTransition, transitionFailed } from "./transitions";
import type { Layer } from "./layer";

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
  /** Page slots (the two pages of a transition, or the still part of the page on screen). */
  slots: Canvas[];
}

function image(g: Graphics): GraphicsImage {
  return { width: g.getWidth(), height: g.getHeight(), bpp: 24, buffer: g.buffer };
}

/** No page is in a slot. */
const EMPTY = -1;

/** Work a frame queues to run after it (see later), a bit each. */
const PREDRAW = 1;
const SNAPSHOTS = 2;
const MAKE_NEXT = 4;

export class DisplayEngine {
  readonly width: number;
  parts: EngineParts;
  frameG: Graphics;
  slotG: Graphics[];
  private slotImage: GraphicsImage[];
  /** What each slot holds: the app, its still key, and the grading it was drawn with. */
  private slotApp: (LoopApp | null)[];
  private slotKey: number[];
  private slotEpoch: number[];
  /** Graded for the LEDs. */
  private live: Surfaces;
  private grade: Grade;
  /** Counts changes of the grading or the settings: a slot drawn under another count is stale. */
  private epoch: number;
  /** The transition the slots hold snapshots for (its start time), or NaN. */
  private snapshotOf: number;
  private snapFrom: number;
  /** The transition the next change of page plays, made ahead; null when it plays as a cut. */
  private next: Transition | null;
  /** Its index in TRANSITIONS, -1 until it is chosen (again once a change has taken it). */
  nextIndex: number;
  /** The transitionEffect setting the transition made ahead was picked for. */
  pickedFor: string;
  /** Its set-up (prepare) is done. */
  private nextReady: boolean;
  /** The transition of the change of page in progress; null for a cut. */
  private running: Transition | null;
  private ctx: FrameContext;
  gradeDirty: boolean;
  private gradedAt: number;
  private blanked: boolean;
  private frames: number;
  private fpsWindowStart: number;
  private timer: number;
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
    this.slotG = [Graphics.createArrayBuffer(this.width, PANEL_HEIGHT, 24), Graphics.createArrayBuffer(this.width, PANEL_HEIGHT, 24)];
    this.slotImage = [image(this.slotG[0]), image(this.slotG[1])];
    this.slotApp = [null, null];
    this.slotKey = [EMPTY, EMPTY];
    this.slotEpoch = [0, 0];
    this.grade = new Grade();
    this.live = {
      frame: new FrameCanvas(this.frameG, this.grade),
      slots: [new FrameCanvas(this.slotG[0], this.grade), new FrameCanvas(this.slotG[1], this.grade)],
    };
    this.epoch = 1;
    this.snapshotOf = NaN;
    this.snapFrom = 0;
    this.next = null;
    this.nextIndex = -1;
    this.pickedFor = "";
    this.nextReady = true;
    this.running = null;
    this.ctx = { now: 0, shownMs: 0, local: newLocalTime(), settings: parts.settings() };
    this.gradeDirty = true;
    this.gradedAt = -1;
    this.blanked = false;
    this.frames = 0;
    this.fpsWindowStart = 0;
    this.timer = 0;
    this.queued = 0;
    this.predrawnAt = 0;
    this.arrived = null;
  }

  start(now: () => number): void {
    if (this.timer) return;
    this.fpsWindowStart = now();
    this.timer = setInterval(() => {
      // A page that throws loses its frame, not the clock: the next frame comes as usual.
      try {
        this.tick(now());
      } catch (e) {
        this.parts.report.fps = 0;
      }
    }, FRAME_MS);
  }

  /** Chooses the next transition by the setting in force and makes it. */
  pickNext(): void {
    this.pickedFor = this.parts.settings().transitionEffect;
    const i = this.parts.pick();
    if (i !== this.nextIndex) this.makeNext(i);
  }

  /**
   * The loop's chooser, called as a change of page starts: the transition made ahead, which then
   * plays. A change that comes before it is ready (one that follows another at once, in a
   * request) has it made here.
   */
  take(): number {
    if (this.nextIndex < 0) this.pickNext();
    while (!this.nextReady) this.prepareNext();
    const i = this.nextIndex;
    this.running = this.next;
    this.next = null;
    this.nextIndex = -1;
    return i;
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
    this.countFrame(now);
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

  /** The slot the page on screen does not hold its still part in. */
  private freeSlot(): number {
    return this.slotApp[1] === this.parts.loop.current() ? 0 : 1;
  }

  /**
   * Between changes of page, the page to come next gets its still part drawn ahead, after a
   * frame rather than in the first frame of its transition: a long draw list takes many times a
   * frame's budget. Looked at again when the page to come or the grading changes, and once a
   * second for pages whose still part changes with the time.
   */
  private queuePredraw(now: number): void {
    const loop = this.parts.loop;
    const up = loop.upcoming();
    if ((this.queued & PREDRAW) || !up || !up.stillKey || loop.incoming()) return;
    const b = this.freeSlot();
    if (this.slotApp[b] === up && this.slotEpoch[b] === this.epoch && now - this.predrawnAt < 1000) return;
    this.predrawnAt = now;
    this.later(PREDRAW, () => this.predraw());
  }

  /** Runs `work` after the frame in progress, unless work of that kind is queued already. */
  private later(kind: number, work: () => void): void {
    if (this.queued & kind) return;
    this.queued |= kind;
    setTimeout(() => {
      this.queued &= ~kind;
      work();
    }, 0);
  }

  private predraw(): void {
    const loop = this.parts.loop;
    const up = loop.upcoming();
    const cur = loop.current();
    if (!up || up === cur || !up.stillKey || !up.drawStill || loop.incoming()) return;
    const b = this.freeSlot();
    const ctx = this.ctx;
    ctx.shownMs = 0;
    ctx.grading = this.epoch;
    const key = up.stillKey(ctx);
    if (this.slotApp[b] === up && this.slotKey[b] === key && this.slotEpoch[b] === this.epoch) return;
    const c = this.live.slots[b];
    c.g.clear();
    up.drawStill(c, ctx);
    this.hold(b, up, key);
  }

  /**
   * A frame between changes of page does one step toward the next transition: it drops the one
   * that landed (if the frame that landed it did not), or, once the next page is ready, chooses and
   * makes the next, or runs a slice of its set-up. Without a next page (a request brought another
   * page on screen, the apps changed) the transition made for it is dropped too.
   */
  private ahead(): void {
    if (this.running) this.landed();
    else if (!this.parts.loop.upcoming()) {
      if (this.nextIndex >= 0) this.dropNext();
    } else if (this.nextIndex < 0) this.later(MAKE_NEXT, () => this.makeAhead());
    else if (!this.nextReady) this.prepareNext();
  }

  /** After a frame: the next transition, if the next page is still to come and none was made. */
  private makeAhead(): void {
    const loop = this.parts.loop;
    if (this.nextIndex < 0 && !this.running && loop.upcoming() && !loop.incoming()) this.pickNext();
  }

  private dropNext(): void {
    this.next = null;
    this.nextIndex = -1;
    this.nextReady = true;
  }

  /** Loads transition `i` and makes it for the panel; what was made before goes first. */
  private makeNext(i: number): void {
    this.dropNext();
    const t = loadTransition(i, this.width, PANEL_HEIGHT, this.parts.panel.scratch);
    this.next = t;
    this.nextIndex = i;
    this.nextReady = !t || !t.prepare;
  }

  /** One slice of the next transition's set-up; one that throws makes the change a cut. */
  private prepareNext(): void {
    const t = this.next;
    try {
      this.nextReady = !t || !t.prepare || t.prepare();
    } catch (e) {
      transitionFailed(this.nextIndex, e);
      this.next = null;
      this.nextReady = true;
    }
  }

  /** Every slot is stale: drawn again before it is used. */
  forget(): void {
    this.epoch++;
    this.snapshotOf = NaN;
  }

  private countFrame(now: number): void {
    this.frames++;
    const span = now - this.fpsWindowStart;
    if (span >= 1000) {
      this.parts.report.fps = Math.round((this.frames * 1000) / span);
      this.frames = 0;
      this.fpsWindowStart = now;
    }
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
    if (cur && next) this.transition(s, cur, next, now);
    else if (!isNaN(this.snapshotOf)) {
      this.arrived = cur;
      this.landed();
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
  private cachedPage(s: Surfaces, app: LoopApp): void {
    const ctx = this.ctx;
    const key = (app.stillKey as (f: FrameContext) => number)(ctx);
    let slot = this.slotApp[1] === app ? 1 : 0;
    const stale = this.slotApp[slot] !== app || this.slotKey[slot] !== key || this.slotEpoch[slot] !== this.epoch;
    if (stale && app === this.arrived && s === this.live) {
      // Just arrived: its snapshot from the change for this frame (its moving part held still for
      // it), and its still part drawn after the frame, so that no frame draws a long still part.
      this.frameG.drawImage(this.slotImage[1 - this.snapFrom], 0, 0);
      this.arrived = null;
      setTimeout(() => this.cacheStill(app), 0);
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

  /** After a frame: the still part of `app`, if it is still the page on screen, into slot 0. */
  private cacheStill(app: LoopApp): void {
    const loop = this.parts.loop;
    if (loop.current() !== app || loop.incoming() || !app.stillKey || !app.drawStill) return;
    const ctx = this.ctx;
    const key = app.stillKey(ctx);
    const c = this.live.slots[0];
    c.g.clear();
    app.drawStill(c, ctx);
    this.hold(0, app, key);
  }

  private hold(slot: number, app: LoopApp | null, key: number): void {
    this.slotApp[slot] = app;
    this.slotKey[slot] = key;
    this.slotEpoch[slot] = this.epoch;
  }

  /**
   * Both pages are drawn once when the transition starts and stand still while it runs: a frame
   * of a transition then costs only its composition. Drawing both takes up to twice a page's
   * frame, so on the LEDs the first frame of a change shows the page being left as it is, and the
   * snapshots are drawn right after that frame (a capture draws them at once).
   */
  private transition(s: Surfaces, from: LoopApp, to: LoopApp, now: number): void {
    const loop = this.parts.loop;
    const started = loop.startedAt();
    if (started !== this.snapshotOf) {
      if (s !== this.live) this.snapshots(s, from, to, now);
      else {
        this.queueSnapshots(from, to, started, now);
        this.ctx.shownMs = loop.shownMs(now);
        if (from.stillKey) this.cachedPage(s, from);
        else from.draw(s.frame, this.ctx);
        return;
      }
    }
    const a = this.snapFrom;
    const t = loop.progress(now);
    const fromImage = this.slotImage[a];
    const toImage = this.slotImage[1 - a];
    const tr = this.running;
    // Full white as the panel shows it, for the transitions that flash.
    s.frame.color(0xffffff);
    if (tr) {
      try {
        tr.draw(this.frameG, fromImage, toImage, t, loop.reverse);
        return;
      } catch (e) {
        transitionFailed(loop.effect, e);
        this.running = null;
        this.frameG.setClipRect(0, 0, this.width - 1, PANEL_HEIGHT - 1);
      }
    }
    // A cut: the old page until the new one has landed.
    this.frameG.drawImage(t < 1 ? fromImage : toImage, 0, 0);
  }

  /** After the frame: the snapshots of the change that started at `started`, if it still runs. */
  private queueSnapshots(from: LoopApp, to: LoopApp, started: number, now: number): void {
    this.later(SNAPSHOTS, () => {
      const loop = this.parts.loop;
      if (loop.incoming() === to && loop.current() === from && loop.startedAt() === started && started !== this.snapshotOf) {
        this.snapshots(this.live, from, to, now);
      }
    });
  }

  /** Draws the snapshots of both pages of the change that started at the loop's startedAt(). */
  private snapshots(s: Surfaces, from: LoopApp, to: LoopApp, now: number): void {
    const loop = this.parts.loop;
    // The old page keeps its slot when it was cached there: only its moving part is added.
    const ctx = this.ctx;
    const a = this.slotApp[1] === from ? 1 : 0;
    ctx.shownMs = loop.shownMs(now);
    const held = this.slotApp[a] === from && this.slotEpoch[a] === this.epoch && from.stillKey &&
      this.slotKey[a] === from.stillKey(ctx);
    if (held) (from.drawMoving as (c: Canvas, f: FrameContext) => void)(s.slots[a], ctx);
    else this.drawPage(s.slots[a], from);
    // The new page's still part may be there already (predraw): then only its moving part.
    const b = 1 - a;
    const arriving = loop.incomingShownMs(now);
    ctx.shownMs = arriving > 0 ? arriving : 0;
    const ready = this.slotApp[b] === to && this.slotEpoch[b] === this.epoch && to.stillKey &&
      this.slotKey[b] === to.stillKey(ctx);
    if (ready) (to.drawMoving as (c: Canvas, f: FrameContext) => void)(s.slots[b], ctx);
    else this.drawPage(s.slots[b], to, arriving);
    // Snapshots, not still parts: neither slot may serve as a cache afterwards.
    this.hold(0, null, EMPTY);
    this.hold(1, null, EMPTY);
    this.snapshotOf = loop.startedAt();
    this.snapFrom = a;
  }

  /** A change of page has landed: its transition, and all it drew with, is given back. */
  private landed(): void {
    this.snapshotOf = NaN;
    this.running = null;
  }

  private drawPage(c: Canvas, app: LoopApp, shownMs?: number): void {
    c.g.clear();
    if (shownMs !== undefined) this.ctx.shownMs = shownMs > 0 ? shownMs : 0;
    app.draw(c, this.ctx);
  }
}

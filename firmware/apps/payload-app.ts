// Pages made from stored payloads (payload/stored.ts), for pushed apps and notifications, and the
// pushed app itself as the loop sees it.
//
// A pushed app costs what its stored payload costs plus a handful of variables: its name and
// payload, and only the extras it was given (durationMs, repeat, a lifetime, an array family) as
// small integers; its page exists only while the loop has it on screen or about to come. All pages share
// one load of the page module, which is dropped with the last page.
import type { FrameContext, LoopApp } from "./types";
import type { TextKit } from "./text-kit";
import type { MakePayloadPage, PayloadHost, PayloadPage, StoredPayload } from "../payload/stored";
import { loadModule } from "../platform/modules";
import { PageApp } from "./page-app";
import { timeUp } from "./dwell";

/** What every payload page draws with (the resident text code); filled in once at boot. */
export const payloadHost: PayloadHost = { text: null as unknown as TextKit, width: 32 };

let maker: MakePayloadPage | null = null;
/** Pages made and not yet dropped: the module is held while there is one. */
let pages = 0;

/** The page of `p`, made outside frames; throws when the page module cannot make it. */
export function makePayloadPage(p: StoredPayload): PayloadPage {
  if (!maker) maker = loadModule<MakePayloadPage>("payload/page");
  let page: PayloadPage;
  try {
    page = maker(p, payloadHost);
  } catch (e) {
    if (!pages) maker = null;
    throw e;
  }
  pages++;
  return page;
}

/** A page of makePayloadPage is no longer used. */
export function dropPayloadPage(): void {
  if (--pages <= 0) {
    pages = 0;
    maker = null;
  }
}

export class PushedApp extends PageApp implements LoopApp {
  name: string;
  p: StoredPayload;
  /** On the prototype: one for every app. */
  declare origin: "pushed";
  declare page?: PayloadPage;
  /** durationMs and repeat, present only when given. */
  declare du?: number;
  declare rp?: number;
  /**
   * When the lifetime ends, in the loop's lifetime clock (AppLoop.life): positive to be
   * removed then, negative (the time negated) to be marked then.
   */
  declare ex?: number;
  /** 1 once the lifetime ran out with lifetimeExpiry "mark": the page is made framed (PayloadPage.markStale). */
  declare mk?: number;
  /** Made by an array push: the length of the base name that removes it with its family. */
  declare fam?: number;

  constructor(name: string, p: StoredPayload) {
    super();
    this.name = name;
    this.p = p;
  }

  load(): boolean {
    if (this.page) return true;
    try {
      const page = makePayloadPage(this.p);
      this.page = page;
      if (this.mk) page.markStale();
    } catch (e) {
      return !!this.page;
    }
    return true;
  }

  release(): void {
    if (!this.page) return;
    super.release();
    dropPayloadPage();
  }

  over(f: FrameContext, appDurationMs: number): boolean {
    return timeUp(f, appDurationMs, this.du || 0, this.rp || 0, this.page);
  }
}
PushedApp.prototype.origin = "pushed";

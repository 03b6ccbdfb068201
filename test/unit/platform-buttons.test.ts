// The buttons' watches (platform/buttons.ts): one per wired pin, all sharing one callback that
// tells the button by the pin the edge names; a pin of -1 is not watched; every listener hears
// every edge, and one that throws keeps it from none of the others.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { watchButtons } from "../../firmware/platform/buttons";

interface Watch { fn: (e: WatchEvent) => void; pin: number; opts: object }

const g = globalThis as unknown as { [k: string]: unknown };

let watches: Watch[] = [];
let modes: string[] = [];
let saved: { [k: string]: unknown } = {};

// Installed only while these tests run: the other suites of this process have stand-ins of their own.
test.before(() => {
  saved = { setWatch: g.setWatch, pinMode: g.pinMode, print: g.print };
  g.setWatch = (fn: (e: WatchEvent) => void, pin: number, opts: object) => watches.push({ fn, pin, opts });
  g.pinMode = (pin: number, mode: string) => modes.push(pin + " " + mode);
  g.print = () => undefined;
});

test.after(() => {
  for (const k of Object.keys(saved)) {
    if (saved[k] === undefined) delete g[k];
    else g[k] = saved[k];
  }
});

function wire(pins: { pinBtnLeft: number; pinBtnSelect: number; pinBtnRight: number }): {
  watches: Watch[]; modes: string[]; heard: string[]; listeners: ((name: string, pressed: boolean) => void)[];
} {
  watches = [];
  modes = [];
  const heard: string[] = [];
  const listeners = watchButtons(pins);
  listeners.push((name, pressed) => heard.push(name + (pressed ? " down" : " up")));
  return { watches, modes, heard, listeners };
}

test("one watch per wired pin, pulled up, every edge debounced; all share one callback", () => {
  const { watches, modes } = wire({ pinBtnLeft: 26, pinBtnSelect: 27, pinBtnRight: 14 });
  assert.equal(watches.map((w) => w.pin), [26, 27, 14]);
  assert.equal(modes, ["26 input_pullup", "27 input_pullup", "14 input_pullup"]);
  for (const w of watches) assert.equal(w.opts, { repeat: true, edge: "both", debounce: 20 });
  assert.ok(watches[0].fn === watches[1].fn && watches[1].fn === watches[2].fn);
});

test("an edge is the button on its pin: low is pressed", () => {
  const { watches, heard } = wire({ pinBtnLeft: 26, pinBtnSelect: 27, pinBtnRight: 14 });
  const fn = watches[0].fn;
  fn({ state: false, time: 0, pin: 27 });
  fn({ state: true, time: 0, pin: 27 });
  fn({ state: false, time: 0, pin: 14 });
  fn({ state: false, time: 0, pin: 26 });
  assert.equal(heard, ["select down", "select up", "right down", "left down"]);
});

test("a pin of -1 is not watched; the others keep their names", () => {
  const { watches, heard } = wire({ pinBtnLeft: -1, pinBtnSelect: 4, pinBtnRight: 5 });
  assert.equal(watches.map((w) => w.pin), [4, 5]);
  watches[1].fn({ state: false, time: 0, pin: 5 });
  watches[0].fn({ state: false, time: 0, pin: 4 });
  assert.equal(heard, ["right down", "select down"]);
});

test("a listener that throws keeps the edge from none of the others", () => {
  const { watches, heard, listeners } = wire({ pinBtnLeft: 26, pinBtnSelect: 27, pinBtnRight: 14 });
  listeners.unshift(() => { throw new Error("broken"); });
  watches[0].fn({ state: false, time: 0, pin: 26 });
  assert.equal(heard, ["left down"]);
});

test.run();

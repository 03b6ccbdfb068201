// The wired buttons, watched once for all that listen to them: the app loop, the buttonCallback
// webhook and MQTT's button state. A watch costs the interpreter about 30 variables, so each pin
// has one, all three share one callback, and a listener is a function in its list.
import { log } from "../logs/log";

/** A button by its wiring, whatever swapButtons and rotate make of it in the loop. */
export type ButtonName = "left" | "select" | "right";

/** Hears every edge of every wired button, down (pressed) and up. */
export type ButtonListener = (name: ButtonName, pressed: boolean) => void;

export interface ButtonPins {
  pinBtnLeft: number;
  pinBtnSelect: number;
  pinBtnRight: number;
}

// The buttons as wired at boot, for the one callback every watch shares. Kept at the top level, so
// that the callback is a plain function with no scope of its own to hold.
let listening: ButtonListener[] = [];
let leftPin = -1;
let selectPin = -1;

/** Every button's watch calls this: an edge names its pin, which tells the button; low is pressed. */
function onPinEdge(e: WatchEvent): void {
  const pin = 0 | e.pin;
  const name: ButtonName = pin === leftPin ? "left" : pin === selectPin ? "select" : "right";
  for (let i = 0; i < listening.length; i++) {
    // One listener that fails does not keep the edge from the others.
    try {
      listening[i](name, !e.state);
    } catch (err) {
      log("button " + name + ": " + err);
    }
  }
}

/** Watches the wired buttons, once at boot: whatever is added to the list returned hears them. */
export function watchButtons(pins: ButtonPins): ButtonListener[] {
  listening = [];
  leftPin = pins.pinBtnLeft;
  selectPin = pins.pinBtnSelect;
  const wired = [pins.pinBtnLeft, pins.pinBtnSelect, pins.pinBtnRight];
  for (let i = 0; i < wired.length; i++) {
    // Active low with the internal pull-up.
    if (wired[i] < 0) continue;
    pinMode(wired[i], "input_pullup");
    setWatch(onPinEdge, wired[i], { repeat: true, edge: "both", debounce: 20 });
  }
  return listening;
}

// The wired buttons, watched once for all that listen to them: the app loop, the buttonCallback
// webhook and MQTT's button state. A watch costs the interpreter about 30 variables, so each pin
// has one, and a listener is a function in its list.
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

function tell(listeners: ButtonListener[], name: ButtonName, pressed: boolean): void {
  for (let i = 0; i < listeners.length; i++) {
    // One listener that fails does not keep the edge from the others.
    try {
      listeners[i](name, pressed);
    } catch (e) {
      log("button " + name + ": " + e);
    }
  }
}

/** Active low with the internal pull-up; made outside watchButtons, whose pins it need not keep. */
function watchPin(listeners: ButtonListener[], pin: number, name: ButtonName): void {
  if (pin < 0) return;
  pinMode(pin, "input_pullup");
  setWatch((e) => tell(listeners, name, !e.state), pin, { repeat: true, edge: "both", debounce: 20 });
}

/** Watches the wired buttons, once at boot: whatever is added to the list returned hears them. */
export function watchButtons(pins: ButtonPins): ButtonListener[] {
  const listeners: ButtonListener[] = [];
  watchPin(listeners, pins.pinBtnLeft, "left");
  watchPin(listeners, pins.pinBtnSelect, "select");
  watchPin(listeners, pins.pinBtnRight, "right");
  return listeners;
}

// Command messages as the core takes them from the client: those under <P>/ are counted and handed
// to the module mqtt/command, which routes them to the HTTP handlers; it stays loaded while
// messages come in and is dropped once they stop, like the request pipeline.
import type { App } from "../app";
import type { MqttLink } from "./link";
import type RunCommand from "./command.mod";
import { heldModule } from "../platform/modules";
import { log } from "../logs/log";

/** How long the command module stays loaded after the last message. */
const KEEP_MS = 500;
/** The device's own replies come back on the command subscription: never read as commands. */
const RESULT = "/result";

/** The link's onMessage: filters, counts and runs command messages. */
export function commandReceiver(app: App, link: MqttLink): (topic: string, payload: string) => void {
  const run = heldModule<typeof RunCommand>("mqtt/command", KEEP_MS);
  return (topic, payload) => {
    const head = link.prefix() + "/";
    if (topic.substr(0, head.length) !== head) return;
    if (topic.length - RESULT.length >= head.length && topic.substr(topic.length - RESULT.length) === RESULT) return;
    app.runtime.messageCount++;
    try {
      run()(app, link, topic.substr(head.length), payload);
    } catch (e) {
      // A broken module must not take the client's receive loop with it.
      log("mqtt command: " + e);
    }
  };
}

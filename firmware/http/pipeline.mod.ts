// The request pipeline as a module, loaded and held by serve.mod.ts: the parsing, guards and
// routing cost memory only while requests come in. For as long as it is held it keeps the last
// route handler it loaded, so that a client polling one route (a dashboard reading the device
// state) does not have the handler's module evaluated again for every request.
import { handleRequest } from "./pipeline";
import type { App } from "../app";
import type { Handler } from "./types";
import { loadModule } from "../platform/modules";

let lastName = "";
let last: Handler | null = null;

function handlerOf(name: string): Handler {
  if (name !== lastName || last === null) {
    // Dropped first: two handlers are never held at once.
    last = null;
    last = loadModule<Handler>(name);
    lastName = name;
  }
  return last;
}

function pipeline(app: App, routes: string, req: EspRequest, res: EspResponse, release: () => void): void {
  handleRequest(app, routes, req, res, release, handlerOf);
}
export default pipeline;

// The door of the request pipeline: the clock holds this module while requests come in and drops
// it once they stop (main.ts). It keeps the pipeline (pipeline.mod.ts) loaded for as long as it is
// held itself, except that an upload lets go of it as soon as its own runner has taken over, so
// that a long upload does not hold the parsing, guards and routing: the next request loads them
// again.
import type Pipeline from "./pipeline.mod";
import { loadModule } from "../platform/modules";

let pipeline: typeof Pipeline | null = null;

function release(): void {
  pipeline = null;
}

function serve(app: Parameters<typeof Pipeline>[0], routes: string, req: EspRequest, res: EspResponse): void {
  if (pipeline === null) pipeline = loadModule<typeof Pipeline>("http/pipeline");
  pipeline(app, routes, req, res, release);
}
export default serve;

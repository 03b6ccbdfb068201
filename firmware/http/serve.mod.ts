// The request pipeline as a module: the clock holds it while requests come in and drops it once
// they stop (main.ts), so the parsing, guards and routing cost memory only while they work.
import { handleRequest } from "./pipeline";

export default handleRequest;

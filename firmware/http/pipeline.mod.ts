// The request pipeline as a module, loaded and held by serve.mod.ts: the parsing, guards and
// routing cost memory only while requests come in.
import { handleRequest } from "./pipeline";

export default handleRequest;

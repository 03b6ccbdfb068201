// GET /api/v1/files?dir=<folder>: {files: [{name, size}], usedBytes, totalBytes}, the files of one
// folder sorted by name (default /ICONS), with the figures of the whole Storage. `dir` is read
// as given (a trailing "/" aside): anything that is not one of the four folders lists empty. An
// icon whose origin is known (files/origins.ts) has it as `origin`.
//
// The answer is streamed (Reply.chunks), a few entries at a time, so a folder of hundreds of
// files costs the list of their names, not their JSON text.
import type { Handler } from "../http/types";
import { toJson } from "../core/json";
import { listFolder } from "./names";
import { listFiles, usage } from "./store";
import { iconId, openOrigins } from "./origins";

/** Text handed over at once, about: a few entries. */
const PIECE = 480;

const list: Handler = (req) => {
  const dir = listFolder(req.query.dir);
  const found = dir ? listFiles(dir) : [];
  const origins = dir === "/ICONS" ? openOrigins().map : {};
  let next = 0;
  let closed = false;
  return {
    status: 200,
    contentType: "application/json",
    text: "{\"files\":[",
    chunks: () => {
      if (closed) return undefined;
      let out = "";
      while (next < found.length && out.length < PIECE) {
        const entry = found[next].split("\u0000");
        const data = require("Storage").read(entry[1]);
        const origin = origins[iconId(entry[0])];
        out += (next ? "," : "") + "{\"name\":" + toJson(entry[0]) + ",\"size\":" + (data === undefined ? 0 : data.length) +
          (origin === undefined ? "" : ",\"origin\":" + toJson(origin)) + "}";
        next++;
      }
      if (next < found.length || out !== "") return out;
      closed = true;
      const u = usage();
      return "],\"usedBytes\":" + u.usedBytes + ",\"totalBytes\":" + u.totalBytes + "}";
    },
  };
};
export default list;

// POST /api/v1/files?dir=<folder>: a multipart upload of one or more files into /ICONS, /MELODIES,
// /PALETTES or /MP3 (default /ICONS). Any part with a file name is a file, whatever its field;
// parts without one are ignored. Each file is checked by name before a byte of it is stored
// (files/names.ts), by its first bytes as they arrive (files/content.ts), written into temporary
// segments, and published under its name once its part has ended (files/store.ts), on its own: a
// later file that fails does not undo an earlier one. The answer is {ok: true} once every file
// is in, the first refusal otherwise; 400 badRequest when the upload held no file.
import type { MakeUpload } from "../http/upload";
import type { Failure } from "../core/failure";
import { failure } from "../core/failure";
import { ok } from "../http/types";
import { invalidPath, uploadFolder } from "./names";
import { SNIFF_BYTES, TEXT_MAX, isTextFolder, startSuits } from "./content";
import { loadModule } from "../platform/modules";
import type TextCheck from "../backup/text-check.mod";
import type NameCheck from "./name-check.mod";
import type Publish from "./publish.mod";
import type Sweep from "./sweep.mod";
import { Incoming, storageFull } from "./store";

function unsuitable(dir: string): Failure {
  return failure(415, "unsupportedMediaType", "content does not suit " + dir);
}

const makeUpload: MakeUpload = (req) => {
  const dir = uploadFolder(req.query.dir);
  if (!dir) return invalidPath();
  // The declared body length bounds each file: its segments are never made larger.
  const declared = parseInt(req.header("content-length"), 10);
  const bound = declared > 0 ? declared : 0;
  // The checks of names, the publishing and the sweep are modules of their own, loaded where they
  // run: the upload holds only what streams a file in.
  loadModule<typeof Sweep>("files/sweep")();
  let name = "";
  let file: Incoming | null = null;
  /** The first bytes of the file, held until its start has been judged ("" once it has). */
  let head = "";
  let judged = false;
  let published = 0;

  const take = (chunk: string): Failure | null => {
    if (!(file as Incoming).add(chunk)) return storageFull();
    if (isTextFolder(dir) && (file as Incoming).size > TEXT_MAX) return unsuitable(dir);
    return null;
  };
  const drop = () => {
    if (file) file.discard();
    file = null;
  };

  return {
    begin: (_field, filename) => {
      drop();
      // A form field, or a file input left empty.
      if (!filename) return null;
      if (filename.charAt(0) === "/") return invalidPath();
      const bad = loadModule<typeof NameCheck>("files/name-check")(dir, filename);
      if (bad) return bad;
      name = filename;
      file = new Incoming(bound);
      head = "";
      judged = false;
      return null;
    },
    data: (chunk) => {
      if (!file) return null;
      if (judged) return take(chunk);
      head += chunk;
      if (head.length < SNIFF_BYTES) return null;
      if (!startSuits(dir, head)) return unsuitable(dir);
      judged = true;
      const first = head;
      head = "";
      return take(first);
    },
    end: () => {
      if (!file) return null;
      const f = file;
      if (!judged) {
        // A file shorter than the bytes a verdict looks at.
        if (!startSuits(dir, head)) return unsuitable(dir);
        if (!f.add(head)) return storageFull();
        judged = true;
        head = "";
      }
      // A text is one segment (TEXT_MAX bytes at most), read in place; the melody and palette
      // parsers are loaded only for it, not held through every upload.
      if (isTextFolder(dir) && (f.span(0) < f.size || !loadModule<typeof TextCheck>("backup/text-check")(dir, f.read(0, f.size)))) {
        return unsuitable(dir);
      }
      const out = loadModule<typeof Publish>("files/publish")(dir, name, f);
      drop();
      if (!out) published++;
      return out;
    },
    finish: () => (published ? ok() : failure(400, "badRequest", "the upload holds no file")),
    abort: drop,
  };
};
export default makeUpload;

// GET /: the page. Its HTML lives in a Storage file written when the firmware is flashed, so the
// page costs no interpreter memory until it is served, and it is sent a piece at a time: a
// Storage piece is a view into flash, where the whole page handed to the socket at once would be
// copied into RAM (about 1,000 variables for 12 KB).
import type { Handler } from "../http/types";
import { failure } from "../core/failure";
import { fwFile } from "../platform/slot";

/** Storage name of the page. */
const PAGE_FILE = "index.html";
/** Bytes handed to the connection at a time. */
const PIECE = 1024;

const page: Handler = () => {
  const Storage = require("Storage");
  const name = fwFile(PAGE_FILE);
  const html = Storage.read(name);
  if (html === undefined) return failure(404, "notFound", "file not found");
  const size = html.length;
  let sent = 0;
  return {
    status: 200, contentType: "text/html; charset=utf-8",
    chunks: () => {
      if (sent >= size) return undefined;
      const piece = Storage.read(name, sent, Math.min(PIECE, size - sent));
      sent += PIECE;
      return piece;
    },
  };
};
export default page;

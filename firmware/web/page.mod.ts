// GET /: the page. Its HTML lives in a Storage file written when the firmware is flashed, so the
// page costs no interpreter memory until it is served.
import type { Handler } from "../http/types";
import { failure } from "../core/failure";
import { flash } from "../platform/flash";
import { fwFile } from "../platform/slot";

/** Storage name of the page. */
const PAGE_FILE = "index.html";

const page: Handler = () => {
  const html = flash.read(fwFile(PAGE_FILE));
  if (html === undefined) return failure(404, "notFound", "file not found");
  return { status: 200, text: html, contentType: "text/html; charset=utf-8" };
};
export default page;

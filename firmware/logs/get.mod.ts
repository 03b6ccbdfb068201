// GET /api/v1/logs?after=<n>: {next, lines}, the kept lines numbered above `after` and the number
// of the newest one (0 while nothing was logged). A client polls with the `next` it was given.
import type { Handler } from "../http/types";
import { json } from "../http/types";
import { logRing } from "./log";

const getLogs: Handler = (req) => {
  const ring = logRing();
  const lines: string[] = [];
  if (!ring || ring.held === 0) return json({ next: 0, lines });
  // Anything that is not a number asks for every line, as no `after` does.
  const after = parseInt(req.query.after, 10) || 0;
  const text = ring.text;
  // Lines are numbered consecutively up to seq, the oldest held one first.
  let seq = ring.seq - ring.held;
  let at = 0;
  while (at < ring.used) {
    const end = text.indexOf(10, at);
    if (end < 0) break;
    if (++seq > after) lines.push(E.toString(text.subarray(at, end)) || "");
    at = end + 1;
  }
  return json({ next: ring.seq, lines });
};
export default getLogs;

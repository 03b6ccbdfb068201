// Whether a melody or palette file reads as one (files/content.ts textSuits), for POST
// /api/v1/files and restores alike: a module of its own, loaded only when such a file is
// published, so the RTTTL and palette parsers are not held through a whole upload or restore.
import { textSuits } from "../files/content";

export default textSuits;

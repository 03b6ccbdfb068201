// Whether a restored melody or palette reads as one (files/content.ts textSuits): a module of its
// own, loaded only when such a file is published, so the RTTTL and palette parsers are not held
// through the whole restore.
import { textSuits } from "../files/content";

export default textSuits;

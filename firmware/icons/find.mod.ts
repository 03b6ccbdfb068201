// The icon lookup and its decode cache (icons/icon.ts), for a page that names an icon: loaded when
// such a page is made, and kept in memory only by the icons it found.
import { findIcon } from "./icon";

export default findIcon;

// Blocks: the new page appears tile by tile (4 x 2 pixels), in a fixed shuffled order, linearly in
// time.
import { shuffledReveal } from "./reveal";

export default shuffledReveal(4, 2, 0x7a3c9e11);

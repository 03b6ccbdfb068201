// Pixelate: the new page appears pixel by pixel, in a fixed shuffled order, linearly in time.
import { shuffledReveal } from "./reveal";

export default shuffledReveal(1, 1, 0x2f6b1d35);

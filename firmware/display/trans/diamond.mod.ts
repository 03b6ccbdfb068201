// Diamond: a diamond of the new page grows from the centre (Ripple measured in Manhattan distance).
import type { MakeTransition } from "../transitions";
import { growFromCentre } from "./grow";

const diamond: MakeTransition = () => ({
  draw: (out, from, to, t) => growFromCentre(out, from, to, t, false),
});
export default diamond;

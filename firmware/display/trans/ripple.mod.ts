// Ripple: a circle of the new page grows from the centre.
import type { MakeTransition } from "../transitions";
import { growFromCentre } from "./grow";

const ripple: MakeTransition = () => ({
  draw: (out, from, to, t) => growFromCentre(out, from, to, t, true),
});
export default ripple;

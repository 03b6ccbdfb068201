// The multipart parser (multipart.ts) as a module of its own: the upload runner loads it when an
// upload's parts begin and lets go of it once the body has ended, so that it is not held while
// the route makes its answer (a restore applies its configuration then).
import { Multipart } from "./multipart";

export default Multipart;

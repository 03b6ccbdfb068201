// Publishing a received file under its name (files/store.ts, publish), with the index of long
// names it may need, as a module: POST /api/v1/files and a restore load it as each file ends and
// drop it after, so that it is not held while files stream in.
import { publish } from "./store";

export default publish;

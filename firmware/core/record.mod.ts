// The writes of a record held for good (the stored settings and system configuration): a save or
// a wipe loads them; reading a copy back is done by each store's own load module.
import { eraseRecord, saveRecord } from "./persist";

export default { save: saveRecord, erase: eraseRecord };

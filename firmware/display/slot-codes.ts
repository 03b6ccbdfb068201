// Codes the render loop (engine.ts) and what a change of page needs (change.mod.ts) share.

/** No page is in a slot. */
export const EMPTY = -1;

/** Work a frame queues to run after it (DisplayEngine.later), a bit each. */
export const PREDRAW = 1;
export const SNAPSHOTS = 2;
export const MAKE_NEXT = 4;

// Replaced at build time with package.json's version.
declare const PIXLOOP_VERSION: string;
export const VERSION: string = PIXLOOP_VERSION;

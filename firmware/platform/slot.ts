// Which of the two sets of firmware files this run uses (firmware/update/README.md). The boot
// stage (.bootcde) picks a slot and leaves its Storage prefix, "a/" or "b/", in the global
// PIXLOOP_SLOT before it starts that slot's bundle; every firmware file (a module, the route
// table, a font, the web page) is then read under that prefix. A bundle started without the boot
// stage (run as .bootcde itself, or by a host that loads it from a file) finds no prefix and reads
// the build's plain names.

declare const PIXLOOP_SLOT: string | undefined;

/** "a/", "b/", or "" when the bundle was not started by the boot stage. */
export function slotPrefix(): string {
  return typeof PIXLOOP_SLOT === "string" ? PIXLOOP_SLOT : "";
}

/**
 * The Storage name of the running slot's copy of firmware file `name` ("routes", "m.system.put").
 * The prefix is read here itself rather than through slotPrefix: the core keeps this one resident
 * and only modules need the other.
 */
export function fwFile(name: string): string {
  return (typeof PIXLOOP_SLOT === "string" ? PIXLOOP_SLOT : "") + name;
}

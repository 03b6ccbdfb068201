// The browser the page suites drive: Debian's Chromium, or the one CHROMIUM names.
import * as fs from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/**
 * A headless Chromium, or null (said once, as `what` skipped) where there is none. CI installs
 * the browser, so there a missing one is a failure, not a skip.
 */
export async function openBrowser(what: string): Promise<Browser | null> {
  if (!fs.existsSync(CHROMIUM)) {
    if (process.env.CI) throw new Error("no browser at " + CHROMIUM);
    console.log(what + " skipped: no browser at " + CHROMIUM + " (set CHROMIUM)");
    return null;
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

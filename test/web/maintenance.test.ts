// The page's maintenance part in a real browser against the simulator, as a person uses it: files
// uploaded into a folder, refused and deleted; a backup downloaded and restored on the same clock
// and, after a factory reset, onto the clock in setup mode; firmware packages refused (the wrong
// file, the build's own package, which is not newer) and one accepted, followed through the restart.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { type Browser, type Page } from "playwright-core";
import { openBrowser } from "./browser";
import { startTarget, call, type Target } from "../http/target";
import { makeGif } from "../unit/icons-support";
import { makePackage } from "../espruino/update-support";
import { ROOT } from "../harness/root";

const t = suite("web page: maintenance");
let browser: Browser | null = null;

t.before(async () => { browser = await openBrowser("maintenance page tests"); });
t.after(async () => { if (browser) await browser.close(); });

function gif(color: number): Buffer {
  return makeGif({ width: 8, height: 8, palette: [color, 0], frames: [{ w: 8, h: 8, pixels: new Array(64).fill(0), delay: 0 }] });
}

/** The entry names of a store-only ZIP, from its local headers. */
function zipEntries(archive: Buffer): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  let at = 0;
  while (at + 30 <= archive.length && archive.readUInt32LE(at) === 0x04034b50) {
    const size = archive.readUInt32LE(at + 18);
    const n = archive.readUInt16LE(at + 26);
    const x = archive.readUInt16LE(at + 28);
    out[archive.toString("latin1", at + 30, at + 30 + n)] = archive.toString("latin1", at + 30 + n + x, at + 30 + n + x + size);
    at += 30 + n + x + size;
  }
  return out;
}

async function files(dut: Target, dir: string): Promise<{ name: string; size: number }[]> {
  const r = await call(dut, "GET", "/api/v1/files?dir=" + encodeURIComponent(dir));
  assert.is(r.status, 200, r.text);
  return r.body.files;
}

async function open(dut: Target): Promise<Page> {
  const page = await browser!.newPage();
  await page.goto(dut.url + "/");
  await page.waitForSelector("#maint", { state: "visible" });
  return page;
}

/** Waits until element `sel` holds text matching `re`; gives that text. */
async function textMatching(page: Page, sel: string, re: RegExp, timeout = 30000): Promise<string> {
  await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)!.textContent || ""),
    [sel, re.source], { timeout });
  return (await page.textContent(sel)) || "";
}

async function download(page: Page): Promise<{ name: string; data: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#backup")]);
  return { name: dl.suggestedFilename(), data: fs.readFileSync((await dl.path())!) };
}

async function restoreThroughPage(page: Page, archive: Buffer, name = "pixloop-backup.zip"): Promise<string> {
  await page.evaluate(() => { document.getElementById("zipmsg")!.textContent = ""; });
  await page.setInputFiles("#zip", { name, mimeType: "application/zip", buffer: archive });
  await page.click("#restore button[type=submit]");
  return textMatching(page, "#zipmsg", /^(Restored|Not restored|.*\()/);
}

async function restart(dut: Target, route: string): Promise<void> {
  const booted = dut.nextBoot();
  const r = await call(dut, "POST", route);
  assert.is(r.status, 200, r.text);
  await booted;
  await dut.waitForServer();
}

t("files: an icon uploaded through the page is listed and stored, a wrong file refused, the icon deleted", async () => {
  if (!browser) return;
  const dut = await startTarget();
  try {
    const page = await open(dut);
    await page.waitForSelector("#files td");
    assert.match(await page.textContent("#usage") || "", /^Storage: \d+ KB of \d+ KB used$/);
    const icon = gif(0xff8800);
    await page.setInputFiles("#pick", { name: "webtest.gif", mimeType: "image/gif", buffer: icon });
    await page.click("#upfiles button[type=submit]");
    const row = page.locator("#files tr", { hasText: "webtest.gif" });
    await row.waitFor();
    assert.is(await page.textContent("#filemsg"), "Uploaded.");
    assert.ok((await row.textContent())!.includes(icon.length + " bytes"));
    assert.equal((await files(dut, "/ICONS")).find((f) => f.name === "webtest.gif"), { name: "webtest.gif", size: icon.length });

    // Another folder: the upload goes where the list shows.
    await page.selectOption("#dir", "/PALETTES");
    await page.locator("#files tr", { hasText: "webtest.gif" }).waitFor({ state: "detached" });
    await page.setInputFiles("#pick", { name: "warm.txt", mimeType: "text/plain", buffer: Buffer.from("FF8800\n400000\n") });
    await page.click("#upfiles button[type=submit]");
    await page.locator("#files tr", { hasText: "warm.txt" }).waitFor();
    assert.ok((await files(dut, "/PALETTES")).some((f) => f.name === "warm.txt"));
    assert.not.ok((await files(dut, "/ICONS")).some((f) => f.name === "warm.txt"));

    // A GIF is no palette: the API's refusal is shown and nothing is stored.
    await page.setInputFiles("#pick", { name: "cold.txt", mimeType: "text/plain", buffer: icon });
    await page.click("#upfiles button[type=submit]");
    assert.match(await textMatching(page, "#filemsg", /\(/), /^content does not suit \/PALETTES \(unsupportedMediaType\)$/);
    assert.not.ok((await files(dut, "/PALETTES")).some((f) => f.name === "cold.txt"));

    // Deleting asks first; a declined question deletes nothing.
    await page.selectOption("#dir", "/ICONS");
    await row.waitFor();
    page.once("dialog", (d) => { void d.dismiss(); });
    await row.locator("button.del").click();
    await page.waitForTimeout(300);
    assert.ok((await files(dut, "/ICONS")).some((f) => f.name === "webtest.gif"));
    page.once("dialog", (d) => {
      assert.is(d.message(), "Delete /ICONS/webtest.gif?");
      void d.accept();
    });
    await row.locator("button.del").click();
    await row.waitFor({ state: "detached" });
    assert.is(await page.textContent("#filemsg"), "Deleted webtest.gif.");
    assert.not.ok((await files(dut, "/ICONS")).some((f) => f.name === "webtest.gif"));
  } finally {
    await dut.stop();
  }
});

t("backup: downloaded from the page, a setting changed, the backup restored through the page", async () => {
  if (!browser) return;
  const dut = await startTarget();
  try {
    assert.is((await call(dut, "PATCH", "/api/v1/settings", { body: { brightness: 61 } })).status, 200);
    const page = await open(dut);
    assert.is(await page.getAttribute("#backup", "href"), "/api/v1/backup");
    const taken = await download(page);
    assert.is(taken.name, "pixloop-backup.zip");
    assert.is(taken.data.toString("latin1", 0, 4), "PK\u0003\u0004");
    const entries = zipEntries(taken.data);
    assert.ok("manifest.json" in entries, Object.keys(entries).join(", "));
    assert.is(JSON.parse(entries["config/settings.json"]).brightness, 61);
    assert.not.ok("wifiPass" in JSON.parse(entries["config/wifi.json"]), "no secrets unless asked for");

    assert.is((await call(dut, "PATCH", "/api/v1/settings", { body: { brightness: 13 } })).status, 200);
    assert.match(await restoreThroughPage(page, taken.data), /^Restored\./);
    assert.is((await call(dut, "GET", "/api/v1/settings")).body.brightness, 61);
    // The counts, as the answer gives them.
    const applied = await page.$$eval("#applied dt", (dts) => dts.map((dt) => dt.textContent + "=" + dt.nextElementSibling!.textContent));
    assert.ok(applied.includes("settings=1"), applied.join(" "));
    assert.ok(applied.includes("skipped=0"), applied.join(" "));

    // No archive: the reason is shown, nothing changes.
    assert.is((await call(dut, "PATCH", "/api/v1/settings", { body: { brightness: 20 } })).status, 200);
    const refused = await restoreThroughPage(page, Buffer.from("just some text, no archive\n".repeat(10)), "notes.zip");
    assert.match(refused, /^Not restored: \S/);
    assert.is(await page.$$eval("#applied dt", (dts) => dts.length), 0, "no counts for an archive refused whole");
    assert.is((await call(dut, "GET", "/api/v1/settings")).body.brightness, 20);
  } finally {
    await dut.stop();
  }
});

t("backup with secrets, factory reset, restore in setup mode from the page, restart: the clock is back", async () => {
  if (!browser) return;
  const dut = await startTarget();
  try {
    assert.is((await call(dut, "PUT", "/api/v1/system", { body: { hostname: "hall-clock" } })).status, 200);
    const page = await open(dut);
    await page.check("#secrets");
    assert.is(await page.getAttribute("#backup", "href"), "/api/v1/backup?secrets=1");
    const taken = await download(page);
    assert.is(JSON.parse(zipEntries(taken.data)["config/wifi.json"]).wifiPass, "simulated");

    await restart(dut, "/api/v1/device/factory-reset");
    assert.is((await call(dut, "GET", "/api/v1/device")).body.wifi.state, "accessPoint");
    await page.reload();
    await page.waitForSelector("#setup", { state: "visible" });
    // Only the restore is open in setup mode (the other routes answer 403 there).
    assert.ok(await page.isVisible("#restore"));
    for (const sel of ["#update", "#backup", "#upfiles"]) assert.is(await page.isVisible(sel), false, sel);

    assert.match(await restoreThroughPage(page, taken.data), /^Restored\.[^]*apply at the next start/);
    await page.waitForSelector("#restart", { state: "visible" });
    const booted = dut.nextBoot();
    await page.click("#restart");
    await booted;
    await dut.waitForServer();
    const d = (await call(dut, "GET", "/api/v1/device")).body;
    assert.is(d.wifi.state, "connected");
    assert.is(d.hostname, "hall-clock");
  } finally {
    await dut.stop();
  }
});

t("update: wrong files are refused with the API's reason; a newer package is installed and followed", async () => {
  if (!browser) return;
  const dut = await startTarget();
  try {
    const page = await open(dut);
    const d = (await call(dut, "GET", "/api/v1/device")).body;
    await textMatching(page, "#image", /\.bin$/);
    assert.is(await page.textContent("#image"), d.updateImage);

    const attempt = async (buffer: Buffer) => {
      await page.evaluate(() => { document.getElementById("fwmsg")!.textContent = ""; });
      await page.setInputFiles("#fw", { name: d.updateImage, mimeType: "application/octet-stream", buffer });
      await page.click("#update button[type=submit]");
      return textMatching(page, "#fwmsg", /\(|accepted/);
    };
    assert.match(await attempt(Buffer.from("<html>not firmware</html>\n".repeat(100))), /^not a pixloop firmware package \(wrongChip\)$/);
    // The build's own package is the release the clock runs.
    const built = fs.readFileSync(path.join(ROOT, "dist", d.updateImage));
    assert.match(await attempt(built), /\(notNewer\)$/);
    assert.equal((await call(dut, "GET", "/api/v1/device")).body.update, { state: "idle", release: "", error: "" });

    // What the progress bar is given during the upload.
    await page.evaluate(() => {
      const own = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, "value")!;
      const seen: number[] = (window as any).progressSeen = [];
      Object.defineProperty(HTMLProgressElement.prototype, "value", {
        configurable: true, get: own.get, set(v: number) { seen.push(v); own.set!.call(this, v); },
      });
    });
    const restarted = dut.nextBoot();
    assert.match(await attempt(await makePackage({ version: "0.2.0", wait: 2000 })), /^Package accepted\. The clock restarts/);
    const seen: number[] = await page.evaluate(() => (window as any).progressSeen);
    assert.is(seen[0], 0);
    assert.is(seen[seen.length - 1], 1, seen.join(" "));
    await restarted;
    // The page follows the clock through its restart to the release on trial (or confirmed).
    await textMatching(page, "#fwmsg", /^Update (boot-pending|confirmed): release 0\.2\.0\. The clock runs 0\.2\.0\.$/);
    assert.is((await call(dut, "GET", "/api/v1/device")).body.version, "0.2.0");
    assert.is(await page.isHidden("#update progress"), true);
  } finally {
    await dut.stop();
  }
});

t.run();

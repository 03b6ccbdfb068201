// The web page in a real browser: the status it shows, and the Wi-Fi setup a person does on a
// factory-fresh clock (scan, pick the network, save, restart into station mode).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { type Browser } from "playwright-core";
import { openBrowser } from "./browser";
import { startTarget, call, type Target } from "../http/target";

const t = suite("web page");
let browser: Browser | null = null;

t.before(async () => { browser = await openBrowser("web page tests"); });
t.after(async () => { if (browser) await browser.close(); });

t("in station mode the page shows the clock's status", async () => {
  if (!browser) return;
  const dut = await startTarget();
  try {
    const page = await browser.newPage();
    await page.goto(dut.url + "/");
    await page.waitForSelector("#facts dd");
    const text = await page.textContent("#facts");
    const d = (await call(dut, "GET", "/api/v1/device")).body;
    assert.ok(text!.includes(d.version));
    assert.ok(text!.includes(d.hostname));
    assert.ok(text!.includes("connected (pixloop-sim)"));
    assert.is(await page.isVisible("#setup"), false);
  } finally {
    await dut.stop();
  }
});

t("in station mode the page shows the panel, dot by dot, and steps the loop", async () => {
  if (!browser) return;
  const dut = await startTarget();
  try {
    await call(dut, "PATCH", "/api/v1/settings", { body: { autoTransition: false, transitionDurationMs: 0 } });
    await call(dut, "PUT", "/api/v1/display/moodlight", { body: { color: "#20C040" } });
    const page = await browser.newPage();
    await page.goto(dut.url + "/");
    await page.waitForSelector("#screen", { state: "visible" });
    const dotAt = (x: number, y: number) => page.evaluate(([px, py]) => {
      const c = document.getElementById("led") as HTMLCanvasElement;
      return Array.from(c.getContext("2d")!.getImageData(px * 10 + 5, py * 10 + 5, 1, 1).data.slice(0, 3));
    }, [x, y]);
    await page.waitForFunction(() => {
      const c = document.getElementById("led") as HTMLCanvasElement;
      return c.getContext("2d")!.getImageData(5, 5, 1, 1).data[1] > 0;
    });
    assert.equal(await dotAt(0, 0), [0x20, 0xc0, 0x40]);
    assert.equal(await dotAt(31, 7), [0x20, 0xc0, 0x40]);
    await call(dut, "DELETE", "/api/v1/display/moodlight");
    const before = (await call(dut, "GET", "/api/v1/device")).body.currentApp;
    await page.click("#next");
    await page.waitForTimeout(100);
    assert.is.not((await call(dut, "GET", "/api/v1/device")).body.currentApp, before);
  } finally {
    await dut.stop();
  }
});

t("on a factory-fresh clock a person joins the Wi-Fi from the page", async () => {
  if (!browser) return;
  const dut: Target = await startTarget({ setup: true });
  try {
    const page = await browser.newPage();
    await page.goto(dut.url + "/");
    await page.waitForSelector("#setup", { state: "visible" });
    // The scan fills the network list.
    await page.waitForFunction(() => document.querySelectorAll("#nets option").length > 0, null, { timeout: 10000 });
    assert.is(await page.getAttribute("#nets option", "value"), "pixloop-sim");
    await page.fill("#ssid", "pixloop-sim");
    await page.fill("#pass", "simulated");
    const booted = dut.nextBoot();
    await page.click("button[type=submit]");
    await page.waitForFunction(() => document.getElementById("msg")!.textContent!.startsWith("Saved"));
    await booted;
    await dut.waitForServer();
    const d = (await call(dut, "GET", "/api/v1/device")).body;
    assert.is(d.wifi.state, "connected");
    assert.is(d.wifi.host, "pixloop-sim");
  } finally {
    await dut.stop();
  }
});

t.run();

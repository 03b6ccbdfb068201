// The buttonCallback module in the real interpreter ($ESPRUINO), with Espruino's own http client,
// against a listener in this process on 127.0.0.1: the form POST as it goes out, one request at a
// time with the edges meanwhile coalesced, a listener that is not there logged once, an https://
// URL not sent. (Pressing buttons needs the simulator: test/http/button-callback.test.ts.)
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ROOT } from "../harness/root";
import { builtModule } from "../espruino/script";
// @ts-expect-error: a build script without type declarations
import { espruinoBundle, renameOf } from "../../build/espruino-bundle.mjs";

const bin = process.env.ESPRUINO;
const MARK = "[hook] ";
const UID = "a4cf12ab34cd";

const PROGRAM = `
  import sendCallback from "./firmware/system/callback.mod";
  import type { CallbackState } from "./firmware/system/button-callback";
  import { openLog } from "./firmware/logs/ring";
  import { logRing } from "./firmware/logs/log";
  import type { App } from "./firmware/app";
  declare const PORT: number;
  declare const GONE: number;
  const out = (s: string) => print("${MARK}" + s);
  const live = { buttonCallback: "http://127.0.0.1:" + PORT + "/hook?room=hall" };
  const st: CallbackState = { app: { system: { live }, runtime: { uid: "${UID}" } } as unknown as App,
    busy: false, next: "", failed: "" };
  const ring = openLog();
  const idle = (then: () => void) => {
    const t = setInterval(() => {
      if (st.busy) return;
      clearInterval(t);
      then();
    }, 20);
  };
  sendCallback(st, "left", true);
  sendCallback(st, "left", false);
  sendCallback(st, "right", true);
  out("out " + st.busy + " next " + st.next);
  idle(() => {
    live.buttonCallback = "http://127.0.0.1:" + GONE + "/";
    sendCallback(st, "middle", true);
    idle(() => {
      sendCallback(st, "middle", false);
      idle(() => {
        live.buttonCallback = "https://127.0.0.1:" + PORT + "/";
        sendCallback(st, "left", true);
        out("https " + st.busy);
        const lines = E.toString(ring.text.subarray(0, ring.used)).split("\\n").filter((l) => l.indexOf("buttonCallback") >= 0);
        out("log " + JSON.stringify(lines));
        out("done " + (logRing() === ring));
        quit();
      });
    });
  });
`;

function bundle(port: number, gone: number): string {
  const options = espruinoBundle("", "esp32", "");
  delete options.entryPoints;
  delete options.outfile;
  options.stdin = { contents: PROGRAM, resolveDir: ROOT, loader: "ts" };
  options.write = false;
  // The module that keeps a logged line, in Storage as the clock holds it.
  const keep = builtModule("logs/keep");
  const store = Object.keys(keep).map((name) =>
    "require('Storage').write(" + JSON.stringify(name) + ", atob(" + JSON.stringify(Buffer.from(keep[name], "latin1").toString("base64")) + "));\n");
  return store.join("") + "var PORT = " + port + ", GONE = " + gone + ";\n" + renameOf(esbuild.buildSync(options).outputFiles[0].text);
}

function run(script: string, timeoutMs: number): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-hook-"));
  fs.writeFileSync(path.join(dir, "run.js"), script);
  return new Promise((resolve) => {
    const child = spawn(bin as string, ["run.js"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (b: Buffer) => { text += b.toString("latin1"); });
    child.stderr.on("data", (b: Buffer) => { text += b.toString("latin1"); });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", () => {
      clearTimeout(timer);
      fs.rmSync(dir, { recursive: true, force: true });
      resolve(text.split("\n").map((l) => l.replace(/\r$/, "")));
    });
  });
}

test("the webhook in Espruino: the POST, coalescing, a missing listener, https", async () => {
  if (!bin) {
    console.log("  skipped: set ESPRUINO to run the buttonCallback module in the real interpreter");
    return;
  }
  const hits: { method: string; url: string; type: string; length: string; body: string; at: number }[] = [];
  let open = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("latin1");
    req.on("data", (c) => { body += c; });
    req.on("end", () => {
      hits.push({ method: req.method || "", url: req.url || "", type: String(req.headers["content-type"]),
        length: String(req.headers["content-length"]), body, at: Date.now() });
      most = Math.max(most, ++open);
      // Slow enough for the edges after the first to find it still out.
      setTimeout(() => {
        open--;
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("x".repeat(3000));
      }, 150);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const gone = http.createServer();
  await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", () => resolve()));
  const gonePort = (gone.address() as AddressInfo).port;
  await new Promise<void>((resolve) => gone.close(() => resolve()));
  try {
    const lines = await run(bundle((server.address() as AddressInfo).port, gonePort), 30000);
    const said = lines.filter((l) => l.includes(MARK)).map((l) => l.slice(l.indexOf(MARK) + MARK.length));
    const get = (key: string) => {
      const l = said.find((x) => x.startsWith(key + " "));
      assert.ok(l !== undefined, key + " missing in:\n" + lines.join("\n"));
      return (l as string).slice(key.length + 1);
    };
    assert.is(get("out"), "true next button=right&state=1");
    assert.is(get("done"), "true");
    assert.equal(hits.map((h) => h.body), ["button=left&state=1&uid=" + UID, "button=right&state=1&uid=" + UID]);
    for (const h of hits) {
      assert.equal([h.method, h.url, h.type, h.length], ["POST", "/hook?room=hall", "application/x-www-form-urlencoded", String(h.body.length)]);
    }
    assert.is(most, 1);
    // The waiting edge left only once the first request had ended.
    assert.ok(hits[1].at - hits[0].at >= 140, "second after " + (hits[1].at - hits[0].at) + " ms");
    assert.is(get("https"), "false");
    const logged = JSON.parse(get("log")) as string[];
    assert.is(logged.length, 2, logged.join("\n"));
    assert.ok(logged[0].includes("http://127.0.0.1:" + gonePort + "/"), logged[0]);
    assert.ok(logged[1].includes("https://") && logged[1].includes("only plain http://"), logged[1]);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test.run();

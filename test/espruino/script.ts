// Runs a short TypeScript program in the real interpreter ($ESPRUINO): the source is bundled from
// the project root the way the firmware is, the given files are written into the interpreter's
// Storage first, and everything it prints comes back as lines.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { ROOT } from "../harness/root";
// @ts-expect-error: a build script without type declarations
import { espruinoBundle, renameOf } from "../../build/espruino-bundle.mjs";
// @ts-expect-error: a build script without type declarations
import { asExpression, moduleFile } from "../../build/modules.mjs";

export function runInEspruino(bin: string, source: string, files: { [name: string]: string } = {}, timeoutMs = 120000): string[] {
  const options = espruinoBundle("", "esp32", "");
  delete options.entryPoints;
  delete options.outfile;
  options.stdin = { contents: source, resolveDir: ROOT, loader: "ts" };
  options.write = false;
  // The programs carry 8-bit strings (UTF-8 as bytes): escaped, each stays one byte there.
  options.charset = "ascii";
  const bundle = renameOf(esbuild.buildSync(options).outputFiles[0].text);
  // Storage persists in the directory's espruino.flash, so files are written by runs of their own,
  // a few KB each: a script is read into RAM whole, so their text never shares the interpreter's
  // memory with the program (nor do all modules at once have to fit).
  const batches: string[] = [];
  let script = "";
  for (const [name, data] of Object.entries(files)) {
    script += "require('Storage').write(" + JSON.stringify(name) + ", atob(" +
      JSON.stringify(Buffer.from(data, "latin1").toString("base64")) + "));\n";
    if (script.length > 12000) {
      batches.push(script);
      script = "";
    }
  }
  if (script) batches.push(script);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-script-"));
  try {
    const run = (text: string) => {
      fs.writeFileSync(path.join(dir, "run.js"), text + "\nquit();\n");
      const r = spawnSync(bin, ["run.js"], { cwd: dir, encoding: "latin1", timeout: timeoutMs, stdio: ["ignore", "pipe", "pipe"] });
      return (r.stdout + r.stderr).split("\n").map((l) => l.replace(/\r$/, ""));
    };
    for (const b of batches) run(b);
    return run(bundle);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Module `id` ("logs/keep") as the build stores it, by its Storage name: for the `files` of a
 * program that loads it.
 */
export function builtModule(id: string): { [name: string]: string } {
  const options = espruinoBundle(path.join(ROOT, "firmware", id + ".mod.ts"), "esp32", path.join(ROOT, "dist", "unused"));
  options.format = "esm";
  options.write = false;
  options.banner = undefined;
  return { [moduleFile(id)]: renameOf(asExpression(esbuild.buildSync(options).outputFiles[0].text, id)) };
}

/**
 * Program text that prints `<mark>growth <n>`: what 500 more calls of `run(count)` leave behind
 * beyond what 50 did, after 10 to settle (measuring itself leaves a few variables). `run` is the
 * source of a function of the count.
 */
export function steadyGrowth(mark: string, run: string): string {
  return `
    const steady = ${run};
    const usage = [0, 0, 0];
    steady(10);
    usage[0] = process.memory(false).usage;
    steady(50);
    usage[1] = process.memory(false).usage;
    steady(500);
    usage[2] = process.memory(false).usage;
    print("${mark}growth " + (usage[2] - usage[1] - (usage[1] - usage[0])));
  `;
}

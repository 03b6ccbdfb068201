// The module build (build/modules.mjs): the rule that names modules, the expression a module's
// file holds, and the guard that keeps state and the board out of modules.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as esbuild from "esbuild";
import { asExpression, findModules, moduleFile, moduleGuard } from "../../build/modules.mjs";

test("a module's id is its path under firmware/, its Storage file m.<id with dots>", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-mods-"));
  try {
    fs.mkdirSync(path.join(dir, "system"));
    fs.writeFileSync(path.join(dir, "system", "put.mod.ts"), "export default 1;\n");
    fs.writeFileSync(path.join(dir, "system", "schema.ts"), "export const x = 1;\n");
    assert.equal(findModules(dir).map((m) => [m.id, m.file]), [["system/put", "m.system.put"]]);
    assert.is(moduleFile("display/transitions/slide"), "m.display.transitions.slide");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the file holds one expression whose value is the default export", () => {
  const code = asExpression("function a(n){return n+1}var b={a};export{b as default};", "demo");
  assert.is(code, "(()=>{function a(n){return n+1}var b={a};return b})()");
  assert.is((0, eval)(code).a(1), 2);
  assert.throws(() => asExpression("var a=1;export{a as default,a as other};", "demo"), /default export and no other/);
  assert.throws(() => asExpression("var a=1;", "demo"), /default export/);
});

async function buildWith(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pixloop-guard-"));
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    await esbuild.build({
      entryPoints: [path.join(dir, "x.mod.ts")], bundle: true, write: false, format: "esm", logLevel: "silent",
      plugins: [moduleGuard("x")], alias: { "@board": path.join(dir, "board.ts") },
    });
    return "";
  } catch (e) {
    return String(e.message);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("a module may not copy state or take @board; its own state is fine", async () => {
  assert.is(await buildWith({ "x.mod.ts": "let n = 0;\nimport { k } from './t';\nexport default () => ++n + k;\n",
    "t.ts": "export const k = [1];\n" }), "");
  assert.match(await buildWith({ "x.mod.ts": "import { next } from './s';\nexport default next;\n",
    "s.ts": "let n = 0;\nexport function next() { return ++n; }\n" }), /bundles .*s\.ts, whose top level declares `let`/);
  assert.match(await buildWith({ "x.mod.ts": "import b from '@board';\nexport default b;\n", "board.ts": "export default 1;\n" }),
    /imports @board/);
});

test.run();

// Bundles the firmware into one Espruino script per board (dist/<board>.js) and collects the
// files that go into the device's Storage next to it (dist/storage/).
import * as esbuild from "esbuild";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { STORAGE_FILES } from "./storage-files.mjs";
import { writeFontFiles } from "./fonts.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quiet = process.argv.includes("--quiet");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

const BOARDS = fs.readdirSync(path.join(root, "boards"))
  .filter((f) => f.endsWith(".ts") && f !== "board.ts")
  .map((f) => f.slice(0, -3));

// Syntax Espruino cannot run; esbuild must lower it or refuse to build.
const UNSUPPORTED = {
  "destructuring": false, "default-argument": false, "rest-argument": false,
  "object-rest-spread": false, "array-spread": false, "generator": false, "async-await": false,
  "async-generator": false, "for-await": false, "class-field": false, "class-static-field": false,
  "class-private-field": false, "class-private-method": false, "class-static-blocks": false,
  "optional-chain": false, "exponent-operator": false, "logical-assignment": false,
};

async function buildBoard(id) {
  const outfile = path.join(root, "dist", id + ".js");
  await esbuild.build({
    entryPoints: [path.join(root, "firmware/main.ts")],
    bundle: true,
    format: "iife",
    target: "es2015",
    supported: UNSUPPORTED,
    minifyWhitespace: true,
    minifySyntax: true,
    // Identifier minification can produce `of`, which Espruino cannot parse as a name.
    minifyIdentifiers: false,
    legalComments: "none",
    charset: "utf8",
    alias: { "@board": path.join(root, "boards", id + ".ts") },
    // esbuild wraps `require` calls of unbundled modules in a helper that uses Proxy, which
    // Espruino lacks; under another name the calls reach Espruino's own require untouched.
    define: {
      PIXLOOP_VERSION: JSON.stringify(pkg.version),
      PIXLOOP_FILES: JSON.stringify(Object.keys(STORAGE_FILES).join(",")),
      require: "espruinoRequire",
    },
    banner: { js: "var espruinoRequire=require;" },
    outfile,
    logLevel: "error",
  });
  return outfile;
}

function copyStorageFiles() {
  const dir = path.join(root, "dist", "storage");
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, src] of Object.entries(STORAGE_FILES)) {
    fs.copyFileSync(path.join(root, src), path.join(dir, name));
  }
}

const outputs = [];
for (const id of BOARDS) outputs.push(await buildBoard(id));
writeFontFiles();
copyStorageFiles();
if (!quiet) for (const f of outputs) console.log(path.relative(root, f) + ": " + fs.statSync(f).size + " bytes");

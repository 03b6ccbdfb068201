// The esbuild options that turn a TypeScript entry point into one script Espruino can run: the
// firmware's bundles and the benchmark bundles are built the same way.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { STORAGE_FILES } from "./storage-files.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

// Syntax Espruino cannot run; esbuild must lower it or refuse to build.
const UNSUPPORTED = {
  "destructuring": false, "default-argument": false, "rest-argument": false,
  "object-rest-spread": false, "array-spread": false, "generator": false, "async-await": false,
  "async-generator": false, "for-await": false, "class-field": false, "class-static-field": false,
  "class-private-field": false, "class-private-method": false, "class-static-blocks": false,
  "optional-chain": false, "exponent-operator": false, "logical-assignment": false,
};

/** Options for esbuild.build: `entry` bundled for board `boardId` into `outfile`. */
export function espruinoBundle(entry, boardId, outfile) {
  return {
    entryPoints: [entry],
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
    alias: { "@board": path.join(root, "boards", boardId + ".ts") },
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
  };
}

// The esbuild options that turn a TypeScript entry point into one script Espruino can run: the
// firmware's bundles and the benchmark bundles are built the same way.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import * as acorn from "acorn";
import * as walk from "acorn-walk";
import { STORAGE_FILES } from "./storage-files.mjs";
import { findModules } from "./modules.mjs";
import { ROUTES_FILE } from "./routes.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

// Syntax Espruino cannot run; esbuild must lower it or refuse to build.
const UNSUPPORTED = {
  "destructuring": false, "default-argument": false, "rest-argument": false,
  "object-rest-spread": false, "array-spread": false, "generator": false, "async-await": false,
  "async-generator": false, "for-await": false, "class-field": false, "class-static-field": false,
  "class-private-field": false, "class-private-method": false, "class-static-blocks": false,
  "optional-chain": false, "exponent-operator": false, "logical-assignment": false,
  // Lowered to functions: Espruino 2v29 dies (an ASSERT in jsvar.c) when it skips over an arrow
  // function that uses `this` in a branch it does not take (measured).
  "arrow": false,
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
    // Short local names take fewer of the interpreter's variables in every scope that holds them.
    // The renamer can produce `of`, which Espruino cannot parse as a name: buildEspruinoBundle
    // renames it afterwards. PIXLOOP_READABLE=1 keeps the source's names, to read variable dumps
    // (bench/attribute.ts) against the code.
    minifyIdentifiers: !process.env.PIXLOOP_READABLE,
    legalComments: "none",
    // Non-ASCII characters as escapes: Espruino's strings are 8-bit, and a UTF-8 literal would
    // reach it as two to four characters where Node sees one.
    charset: "ascii",
    alias: { "@board": path.join(root, "boards", boardId + ".ts") },
    // esbuild wraps `require` calls of unbundled modules in a helper that uses Proxy, which
    // Espruino lacks; under another name the calls reach Espruino's own require untouched.
    define: {
      PIXLOOP_VERSION: JSON.stringify(pkg.version),
      PIXLOOP_FILES: JSON.stringify(Object.keys(STORAGE_FILES).concat([ROUTES_FILE], findModules().map((m) => m.file)).join(",")),
      PIXLOOP_HOST_MODULES: "undefined",
      require: "espruinoRequire",
    },
    banner: { js: "var espruinoRequire=require;" },
    outfile,
    logLevel: "error",
  };
}

/** A name no identifier of `code` has: `base` with a number appended as needed. */
function unusedName(names, base) {
  let n = 0;
  while (names.has(base + n)) n++;
  return base + n;
}

/**
 * `code` with every variable named `of` renamed (Espruino reads `of` as a keyword). Property
 * names stay: only bindings and references are renamed.
 */
export function renameOf(code) {
  const ast = acorn.parse(code, { ecmaVersion: 2020 });
  const names = new Set();
  // [start, end, shorthand]: a shorthand property {of} keeps its key and gets a renamed value.
  const spots = new Map();
  walk.fullAncestor(ast, (node, ancestors) => {
    if (node.type !== "Identifier") return;
    names.add(node.name);
    if (node.name !== "of") return;
    const parent = ancestors[ancestors.length - 2];
    if (parent && parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    const isKey = parent && (parent.type === "Property" || parent.type === "MethodDefinition") && parent.key === node &&
      !parent.computed;
    if (isKey && !parent.shorthand) return;
    spots.set(node.start, [node.start, node.end, !!(isKey || (parent && parent.shorthand))]);
  });
  if (!spots.size) return code;
  const name = unusedName(names, "of_");
  let out = code;
  for (const [start, end, shorthand] of [...spots.values()].sort((a, b) => b[0] - a[0])) {
    out = out.slice(0, start) + (shorthand ? "of:" : "") + name + out.slice(end);
  }
  return out;
}

/** Builds `entry` for board `boardId` into `outfile`; `define` adds to the build's constants. */
export async function buildEspruinoBundle(entry, boardId, outfile, define, plugins) {
  const options = espruinoBundle(entry, boardId, outfile);
  options.write = false;
  options.plugins = plugins || [];
  Object.assign(options.define, define || {});
  const result = await esbuild.build(options);
  const code = renameOf(result.outputFiles[0].text);
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  fs.writeFileSync(outfile, code);
  return outfile;
}

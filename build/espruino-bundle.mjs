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
    // The renamer can produce `of`, which Espruino cannot parse as a name, or at the root a name
    // Espruino keeps there (`E`, a pin): buildEspruinoBundle renames them afterwards.
    // PIXLOOP_READABLE=1 keeps the source's names, to read variable dumps
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
 * `code` with every variable whose name is in `rename` given a name no identifier of `code` has
 * (bindings and references alike; property names stay). `rename` may also be a function of the
 * parsed program returning the names.
 */
function renameVariables(code, rename) {
  const ast = acorn.parse(code, { ecmaVersion: 2020 });
  const wanted = typeof rename === "function" ? rename(ast) : rename;
  if (!wanted.size) return code;
  const names = new Set();
  // [start, end, name, shorthand]: a shorthand property {of} keeps its key and gets a renamed value.
  const spots = new Map();
  walk.fullAncestor(ast, (node, ancestors) => {
    if (node.type !== "Identifier") return;
    names.add(node.name);
    if (!wanted.has(node.name)) return;
    const parent = ancestors[ancestors.length - 2];
    if (parent && parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    const isKey = parent && (parent.type === "Property" || parent.type === "MethodDefinition") && parent.key === node &&
      !parent.computed;
    if (isKey && !parent.shorthand) return;
    spots.set(node.start, [node.start, node.end, node.name, !!(isKey || (parent && parent.shorthand))]);
  });
  if (!spots.size) return code;
  const to = new Map();
  for (const n of wanted) {
    const fresh = unusedName(names, n + "_");
    names.add(fresh);
    to.set(n, fresh);
  }
  let out = code;
  for (const [start, end, name, shorthand] of [...spots.values()].sort((a, b) => b[0] - a[0])) {
    out = out.slice(0, start) + (shorthand ? name + ":" : "") + to.get(name) + out.slice(end);
  }
  return out;
}

/**
 * `code` with every variable named `of` renamed (Espruino reads `of` as a keyword). Property
 * names stay: only bindings and references are renamed.
 */
export function renameOf(code) {
  return endBareReturns(renameVariables(code, new Set(["of"])));
}

/**
 * `code` with a semicolon after every `return` without a value that a `}` follows: Espruino 2v29
 * reads `if(x)return}` as a return of an expression that never comes ("Unexpected end of Input"
 * when the function runs; measured), while `if(x)return;}` works. The minifier writes the first.
 */
export function endBareReturns(code) {
  const ast = acorn.parse(code, { ecmaVersion: 2020 });
  const at = [];
  walk.simple(ast, {
    ReturnStatement(node) {
      if (node.argument || code.charAt(node.end - 1) === ";") return;
      let i = node.end;
      while (/\s/.test(code.charAt(i))) i++;
      if (code.charAt(i) === "}") at.push(node.end);
    },
  });
  let out = code;
  for (const i of at.sort((a, b) => b - a)) out = out.slice(0, i) + ";" + out.slice(i);
  return out;
}

// Names Espruino (ESP32 build) keeps at its root that the minifier could give a top-level variable
// of the bundle, which would then hide them: the short ones (the minifier's names have one to
// three characters) and the pins D0..D48.
const ROOT_NAMES = new Set(["E", "LED", "BTN", "LED1", "LED2", "BTN1", "SPI1", "SPI2", "I2C1", "I2C2", "Pin"]);
const isRootName = (n) => ROOT_NAMES.has(n) || /^D[0-9]+$/.test(n);

/** The top-level bindings of a program that would hide one of Espruino's root names. */
function rootClashes(ast) {
  const out = new Set(["of"]);
  const add = (id) => {
    if (id && id.type === "Identifier" && isRootName(id.name)) out.add(id.name);
  };
  for (const st of ast.body) {
    if (st.type === "VariableDeclaration") for (const d of st.declarations) add(d.id);
    if (st.type === "FunctionDeclaration" || st.type === "ClassDeclaration") add(st.id);
  }
  return out;
}

/**
 * A bundle whose top-level declarations live at Espruino's root (no wrapping function), with `of`
 * and any clash with a root name renamed away.
 */
export function atRoot(code) {
  return endBareReturns(renameVariables(code, rootClashes));
}

/** A top-level variable's value that costs nothing in code: a number, a boolean or null. */
function constantValue(init) {
  if (!init) return null;
  if (init.type === "Literal" && (typeof init.value === "number" || typeof init.value === "boolean" || init.value === null)) {
    return init;
  }
  // -1, and the minifier's booleans !0 and !1.
  if (init.type === "UnaryExpression" && (init.operator === "-" || init.operator === "!") &&
    init.argument.type === "Literal" && typeof init.argument.value === "number") return init;
  return null;
}

/**
 * `code` with each top-level variable that holds a number, a boolean or null and is never assigned
 * again replaced by its value where it is read, and its declaration dropped. At Espruino's root
 * every such constant is a variable for good (a float two), while a literal in code run from flash
 * costs nothing until it runs. Only names bound once in the whole program are inlined, so that no
 * inner binding can hide one (the minifier gives nested bindings names of their own anyway).
 */
export function inlineConstants(code) {
  const ast = acorn.parse(code, { ecmaVersion: 2020, sourceType: "module" });
  const bindings = new Map();
  const bind = (id) => {
    if (id && id.type === "Identifier") bindings.set(id.name, (bindings.get(id.name) || 0) + 1);
  };
  const kept = new Set();
  walk.full(ast, (node) => {
    if (node.type === "VariableDeclarator") bind(node.id);
    else if (node.type === "CatchClause") bind(node.param);
    else if (/^(Function|ArrowFunction|Class)(Declaration|Expression)$/.test(node.type)) {
      bind(node.id);
      for (const p of node.params || []) {
        if (p.type === "Identifier") bind(p);
        else walk.full(p, (n) => { if (n.type === "Identifier") kept.add(n.name); });
      }
    } else if (node.type === "AssignmentExpression" && node.left.type === "Identifier") kept.add(node.left.name);
    else if (node.type === "UpdateExpression" && node.argument.type === "Identifier") kept.add(node.argument.name);
    else if (node.type === "ExportSpecifier") kept.add(node.local.name);
  });
  const values = new Map();
  const drop = [];
  for (const st of ast.body) {
    if (st.type !== "VariableDeclaration") continue;
    for (const d of st.declarations) {
      const v = constantValue(d.init);
      if (!v || d.id.type !== "Identifier" || kept.has(d.id.name) || bindings.get(d.id.name) !== 1) continue;
      values.set(d.id.name, code.slice(v.start, v.end));
      drop.push(d);
    }
  }
  if (!values.size) return code;
  // [start, end, text]: each read of a constant, then each declaration to drop.
  const edits = [];
  walk.fullAncestor(ast, (node, ancestors) => {
    if (node.type !== "Identifier" || !values.has(node.name)) return;
    const parent = ancestors[ancestors.length - 2];
    if (parent.type === "VariableDeclarator" && parent.id === node) return;
    if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    if ((parent.type === "Property" || parent.type === "MethodDefinition") && parent.key === node && !parent.computed &&
      !parent.shorthand) return;
    const value = "(" + values.get(node.name) + ")";
    edits.push([node.start, node.end, parent.type === "Property" && parent.shorthand ? node.name + ":" + value : value]);
  });
  for (const st of ast.body) {
    if (st.type !== "VariableDeclaration") continue;
    const ds = st.declarations;
    const lastKept = ds.reduce((k, d, i) => (drop.indexOf(d) < 0 ? i : k), -1);
    if (lastKept < 0) {
      edits.push([st.start, st.end, ""]);
      continue;
    }
    // A dropped declarator goes with the comma after it, or after the last kept one, before it.
    ds.forEach((d, i) => {
      if (drop.indexOf(d) >= 0) edits.push(i < lastKept ? [d.start, ds[i + 1].start, ""] : [ds[i - 1].end, d.end, ""]);
    });
  }
  let out = code;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** Builds `entry` for board `boardId` into `outfile`; `define` adds to the build's constants. */
export async function buildEspruinoBundle(entry, boardId, outfile, define, plugins) {
  const options = espruinoBundle(entry, boardId, outfile);
  // Unwrapped: a function made at the root keeps no scope, one variable less for each of the
  // bundle's top-level functions and methods than inside a wrapping function (measured: 270
  // variables of the firmware).
  options.format = "esm";
  options.write = false;
  options.plugins = plugins || [];
  Object.assign(options.define, define || {});
  const result = await esbuild.build(options);
  const code = inlineConstants(atRoot(result.outputFiles[0].text));
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  fs.writeFileSync(outfile, code);
  return outfile;
}

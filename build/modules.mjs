// Firmware modules: code the clock keeps in Storage and evaluates only while it is needed.
//
// The rule: every file `firmware/<path>.mod.ts` is one module, with the id `<path>` (for example
// firmware/system/put.mod.ts is "system/put"). Its default export is what the core gets back from
// `loadModule("system/put")`; it is its only export. The build bundles each module with what it
// imports into the Storage file `m.<id with / as .>` (at most 26 characters: Storage's 28 less
// the slot prefix the clock stores it behind, firmware/update/README.md),
// written to dist/storage/ beside the fonts and the web page, so flashing and the simulators
// carry modules like any other firmware file.
//
// A module's bundle holds its own copy of the helpers it imports, so it may import only what
// keeps no state: a file with a top-level `let` or `var` (state that the resident core owns) is
// refused (the module file itself may have them: it is evaluated afresh at every load); live state reaches a module through the arguments the core passes it (the App). It
// may not import `@board` either (one module serves every board): the board is `app.board`.
// The resident bundle, in turn, may import a module only as a type.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import * as acorn from "acorn";
import { espruinoBundle, inlineConstants, renameOf } from "./espruino-bundle.mjs";
import { SLOT_PREFIX_LENGTH } from "./package.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIRMWARE = path.join(root, "firmware");
export const MODULE_SUFFIX = ".mod.ts";
const STORAGE_NAME_MAX = 28;

/** "system/put" -> "m.system.put": the Storage file that holds a module. */
export function moduleFile(id) {
  return "m." + id.split("/").join(".");
}

/** Every module of the firmware: [{ id, source, file }], sorted by id. */
export function findModules(dir = FIRMWARE) {
  const out = [];
  const walkDir = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walkDir(p);
      else if (e.name.endsWith(MODULE_SUFFIX)) {
        const id = path.relative(dir, p).split(path.sep).join("/").slice(0, -MODULE_SUFFIX.length);
        out.push({ id, source: p, file: moduleFile(id) });
      }
    }
  };
  walkDir(dir);
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * A TypeScript enum as a file compiled on its own declares it, `var E = ((E) => {...})(E || {})`:
 * a table of constants (a const enum leaves nothing in the bundle), not state.
 */
function isEnum(decl) {
  const d = decl.declarations.length === 1 ? decl.declarations[0] : null;
  const arg = d && d.init && d.init.type === "CallExpression" && d.init.arguments.length === 1 ? d.init.arguments[0] : null;
  return !!arg && arg.type === "LogicalExpression" && arg.operator === "||" && arg.left.type === "Identifier" &&
    arg.left.name === d.id.name && arg.right.type === "ObjectExpression" && arg.right.properties.length === 0;
}

/** Files whose top level declares `let` or `var`: state a module must not copy. */
function statefulTopLevel(code) {
  const ast = acorn.parse(code, { ecmaVersion: "latest", sourceType: "module" });
  for (const st of ast.body) {
    const decl = st.type === "ExportNamedDeclaration" ? st.declaration : st;
    if (decl && decl.type === "VariableDeclaration" && decl.kind !== "const" && !isEnum(decl)) return decl.kind;
  }
  return null;
}

/** esbuild plugin for module builds: refuses @board and imports of stateful files. */
export function moduleGuard(id) {
  return {
    name: "module-guard",
    setup(build) {
      build.onResolve({ filter: /^@board$/ }, () => ({
        errors: [{ text: "module " + id + " imports @board; use app.board (one module serves every board)" }],
      }));
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const code = fs.readFileSync(args.path, "utf8");
        // The module's own state is fresh at every load: only what it imports is checked.
        if (args.path.endsWith(MODULE_SUFFIX)) return { contents: code, loader: "ts" };
        const js = esbuild.transformSync(code, { loader: "ts", format: "esm", target: "esnext" }).code;
        const kind = statefulTopLevel(js);
        if (kind) {
          return {
            errors: [{
              text: "module " + id + " bundles " + path.relative(root, args.path) + ", whose top level declares `" + kind +
                "` (state the resident core owns); pass that state in from the App instead",
            }],
          };
        }
        return { contents: code, loader: "ts" };
      });
    },
  };
}

/**
 * The bundle's ES module text as one expression that evaluates to the default export:
 * `(()=>{<body>;return <name>})()`.
 */
export function asExpression(code, id) {
  const ast = acorn.parse(code, { ecmaVersion: 2020, sourceType: "module" });
  const exports = ast.body.filter((s) => s.type === "ExportNamedDeclaration" || s.type === "ExportDefaultDeclaration");
  const last = exports[exports.length - 1];
  const spec = exports.length === 1 && last.type === "ExportNamedDeclaration" && !last.declaration &&
    last.specifiers.length === 1 && last.specifiers[0].exported.name === "default" ? last.specifiers[0] : null;
  if (!spec) throw new Error("module " + id + " must have a default export and no other export");
  const body = (code.slice(0, last.start) + code.slice(last.end)).trim();
  return "(()=>{" + body + (body.endsWith(";") || body === "" ? "" : ";") + "return " + spec.local.name + "})()";
}

/** Builds every module into `outDir` (one file each, named by moduleFile). Returns the list. */
export async function buildModules(outDir, boardId) {
  fs.mkdirSync(outDir, { recursive: true });
  const modules = findModules();
  const current = new Set(modules.map((m) => m.file));
  for (const f of fs.readdirSync(outDir)) if (f.startsWith("m.") && !current.has(f)) fs.rmSync(path.join(outDir, f));
  for (const m of modules) {
    // On the clock every firmware file sits behind its slot's prefix ("a/", firmware/update).
    if (m.file.length > STORAGE_NAME_MAX - SLOT_PREFIX_LENGTH) {
      throw new Error("module " + m.id + ": Storage name " + m.file + " is longer than " + (STORAGE_NAME_MAX - SLOT_PREFIX_LENGTH) +
        " characters (" + STORAGE_NAME_MAX + " less the slot prefix)");
    }
    const options = espruinoBundle(m.source, boardId, path.join(outDir, m.file));
    options.format = "esm";
    options.write = false;
    options.banner = undefined;
    options.plugins = [moduleGuard(m.id)];
    const result = await esbuild.build(options);
    fs.writeFileSync(path.join(outDir, m.file), renameOf(asExpression(inlineConstants(result.outputFiles[0].text), m.id)));
  }
  return modules;
}

/** esbuild plugin for the resident bundle: a module is reached through loadModule, never imported. */
export const residentGuard = {
  name: "resident-guard",
  setup(build) {
    build.onResolve({ filter: /\.mod$|\.mod\.ts$/ }, (args) => ({
      errors: [{ text: args.importer + " imports " + args.path + " by value; load it with loadModule() (type imports are fine)" }],
    }));
  },
};

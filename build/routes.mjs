// The route table file: firmware/routes.ts (every area's table) encoded by http/router.ts into the
// Storage file `routes`, which the transport reads in place. Every handler and params check it
// names must be a module (build/modules.mjs).
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { findModules } from "./modules.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ROUTES_FILE = "routes";

/** { text, routes } of the table, evaluated on the host. */
export async function routeTable() {
  const result = await esbuild.build({
    stdin: {
      contents: "import { ROUTES } from './firmware/routes';\nimport { encodeRoutes } from './firmware/http/router';\n" +
        "export const routes = ROUTES;\nexport const text = encodeRoutes(ROUTES);\n",
      resolveDir: root, loader: "ts",
    },
    bundle: true, format: "esm", platform: "node", write: false, logLevel: "error",
  });
  const url = "data:text/javascript;base64," + Buffer.from(result.outputFiles[0].text).toString("base64");
  return import(url);
}

/** Writes `routes` into `outDir`; throws when a route names a module that does not exist. */
export async function writeRouteTable(outDir) {
  const { routes, text } = await routeTable();
  const ids = new Set(findModules().map((m) => m.id));
  for (const r of routes) {
    const named = Object.values(r.methods).map((m) => m.handler).concat(r.checkParams ? [r.checkParams] : []);
    for (const id of named) if (!ids.has(id)) throw new Error("route " + r.path + " names module " + id + ", which does not exist");
  }
  fs.writeFileSync(path.join(outDir, ROUTES_FILE), text);
  return text;
}

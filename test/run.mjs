// npm test: type check, build, the bundle checks, the unit and HTTP suites, and the
// real-interpreter suite when ESPRUINO names an interpreter. Ends with one summary line.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
let passed = 0;
let failed = 0;
let skipped = 0;

function step(title, cmd, args, counts) {
  console.log("\n== " + title);
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", env: process.env, maxBuffer: 64 << 20 });
  process.stdout.write(r.stdout || "");
  process.stderr.write(r.stderr || "");
  const out = (r.stdout || "") + (r.stderr || "");
  if (counts) {
    const clean = out.replace(/\x1b\[[0-9;]*m/g, "");
    const total = /Total:\s+(\d+)/.exec(clean);
    const ok = /Passed:\s+(\d+)/.exec(clean);
    const skip = /Skipped:\s+(\d+)/.exec(clean);
    const t = total ? +total[1] : 0;
    const p = ok ? +ok[1] : 0;
    passed += p;
    failed += Math.max(t - p, r.status === 0 ? 0 : 1);
    skipped += skip ? +skip[1] : 0;
  } else if (r.status === 0) passed++;
  else failed++;
  return r.status === 0;
}

step("type check: firmware (ES5 lib and Espruino's globals)", bin("tsc"), ["-p", "tsconfig.json"]);
step("type check: harness, tests and tools (Node)", bin("tsc"), ["-p", "tsconfig.tools.json"]);
if (step("build", process.execPath, ["build/build.mjs"])) {
  step("bundle check", process.execPath, ["build/check-bundle.mjs"]);
  const espcheck = path.join(root, "..", "shared", "tools", "espcheck.mjs");
  if (fs.existsSync(espcheck)) {
    const bundles = fs.readdirSync(path.join(root, "dist")).filter((f) => f.endsWith(".js")).map((f) => "dist/" + f)
      .concat(fs.readdirSync(path.join(root, "dist", "storage")).filter((f) => f.startsWith("m.")).map((f) => "dist/storage/" + f));
    step("independent bundle check", process.execPath, [espcheck, ...bundles]);
  }
}
step("unit tests", bin("uvu"), ["-r", "tsx", "-r", path.join(root, "test/harness/host-modules.ts"), "test/unit", "\\.test\\.(ts|mjs)$"], true);
step("HTTP tests (simulator)", bin("uvu"), ["-r", "tsx", "test/http", "\\.test\\.ts$"], true);
step("web page in a real browser", bin("uvu"), ["-r", "tsx", "test/web", "\\.test\\.ts$"], true);
if (process.env.ESPRUINO) {
  step("real interpreter", process.execPath, ["--import", "tsx", "test/espruino/run.ts"], true);
  step("npm run flash into the real interpreter (its console on TCP port 2323)", bin("uvu"),
    ["-r", "tsx", "test/espruino", "flash\\.test\\.ts$"], true);
  step("firmware updates and restores in the real interpreter: power cuts, memory and frames", bin("uvu"),
    ["-r", "tsx", "test/espruino", "(update|restore)-.*\\.test\\.ts$"], true);
  // The memory budgets the firmware meets (the rest of test/memory: npm run test:memory).
  step("memory budgets of idle, routes, what the first requests leave, uploads (a sink, the files route, a restore), pushed apps and notifications (real interpreter)",
    bin("uvu"), ["-r", "tsx", "test/memory", "(idle|apps|routes|settle|uploads|files-upload|restore)\\.test\\.ts$"], true);
  step("10,000 mixed requests over ten minutes: no wrong answer, no growth (real interpreter)",
    bin("uvu"), ["-r", "tsx", "test/memory", "soak\\.test\\.ts$"], true);
} else {
  console.log("\n== real interpreter: skipped (set ESPRUINO=/path/to/espruino to run it)");
  skipped++;
  console.log("\n== npm run flash into the real interpreter: skipped (set ESPRUINO=/path/to/espruino to run it)");
  skipped++;
  console.log("\n== firmware updates and restores in the real interpreter: skipped (set ESPRUINO=/path/to/espruino to run them)");
  skipped++;
  console.log("\n== memory budgets of idle, routes, what the first requests leave, uploads, restores, pushed apps and notifications: skipped (set ESPRUINO=/path/to/espruino to run them)");
  skipped++;
  console.log("\n== 10,000 mixed requests over ten minutes: skipped (set ESPRUINO=/path/to/espruino to run it)");
  skipped++;
}
console.log("\n" + passed + " passed, " + failed + " failed, " + skipped + " skipped");
process.exit(failed === 0 ? 0 : 1);

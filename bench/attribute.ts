// Where a dump's variables go, as a tree: every variable is counted under the first path from
// the root that reaches it (breadth first), and the tree is printed down to the parts that hold
// at least --min variables. Read a dump of a readable build (PIXLOOP_READABLE=1 npm run build,
// then npm run bench -- --keep-dumps) to see the source's names.
//   node --import tsx bench/attribute.ts bench/out/dump-esp32-idle.csv [--min 20] [--depth 6] [--from <ref>]
import * as fs from "node:fs";

interface Variable { size: number; label: string; links: number[] }

function parse(file: string): Map<number, Variable> {
  const vars = new Map<number, Variable>();
  for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
    const f = line.split(",");
    const ref = Number(f[0]);
    if (!Number.isInteger(ref) || ref <= 0) continue;
    // Names and strings may hold commas: the links are the trailing numeric fields.
    let end = f.length;
    while (end > 4 && f[end - 1] === "") end--;
    let first = end;
    while (first > 4 && /^\d+$/.test(f[first - 1])) first--;
    const label = f.slice(3, first).join(",");
    vars.set(ref, { size: Number(f[1]), label, links: f.slice(first, end).map(Number) });
  }
  return vars;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf("--" + name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const vars = parse(process.argv[2]);
const min = arg("min", 20);
const maxDepth = arg("depth", 6);
const parent = new Map<number, number>();
const children = new Map<number, number[]>();
const queue = [1];
parent.set(1, 0);
while (queue.length) {
  const ref = queue.shift()!;
  for (const l of vars.get(ref)?.links || []) {
    if (parent.has(l) || !vars.has(l)) continue;
    parent.set(l, ref);
    (children.get(ref) || children.set(ref, []).get(ref)!).push(l);
    queue.push(l);
  }
}
const total = new Map<number, number>();
function sum(ref: number): number {
  let n = vars.get(ref)!.size;
  for (const c of children.get(ref) || []) n += sum(c);
  total.set(ref, n);
  return n;
}
console.log("reachable " + sum(1) + " of " + [...vars.values()].reduce((n, v) => n + v.size, 0));
function show(ref: number, depth: number) {
  const v = vars.get(ref)!;
  console.log("  ".repeat(depth) + total.get(ref) + "  " + (v.label || "?").slice(0, 60) + " #" + ref);
  if (depth >= maxDepth) return;
  const kids = (children.get(ref) || []).filter((c) => total.get(c)! >= min);
  kids.sort((a, b) => total.get(b)! - total.get(a)!);
  for (const c of kids) show(c, depth + 1);
}
const from = arg("from", 1);
show(from, 0);

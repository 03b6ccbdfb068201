// check-bundle: fail the build when a bundle uses something Espruino (2v29) cannot run.
//
//   node build/check-bundle.mjs [files...]      (default: every dist/*.js and module dist/storage/m.*)
//
// Prints `file:line:col: message` for each finding (line and column start at 1) and
// each clean bundle's size; exits 1 if anything was found. Tests call `checkSource`.
//
// What Espruino lacks is listed in the tables below (from ESPRUINO.md; entries marked
// "measured" were checked against the Espruino 2v29 Linux build). To add a rule, add a
// row to one table:
//   SYNTAX_RULES       syntax it does not parse (node type + predicate + message)
//   MISSING_GLOBALS    global names it does not define
//   MISSING_STATICS    static members of builtins it does not define (`Array.from`)
//   MISSING_METHODS    instance methods, flagged on any receiver (`x.flat(...)`)
//   ARRAY_ONLY_METHODS instance methods only arrays lack (flagged on array literals)
//   PROTOTYPES_WITHOUT_MEMBERS  builtins whose `X.prototype.method` reads as undefined
//   MISSING_MODULES    require("...") names it does not have
//   REGEX_PROBLEMS     regex features its tiny regex engine lacks (see scanRegex)
// The for-loop closure rule (checkLoopClosures) needs scope analysis, so it is code.

import { readFileSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as acorn from "acorn";
import * as walk from "acorn-walk";

// ---------------------------------------------------------------------------
// Tables

// Words Espruino's lexer turns into keywords (src/jslex.c). Where JS expects a plain
// name, Espruino wants an identifier token, so these fail there.
const ESPRUINO_KEYWORDS = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
  "do", "else", "extends", "false", "finally", "for", "function", "if", "in", "instanceof",
  "let", "new", "null", "of", "return", "static", "super", "switch", "this", "throw", "true",
  "try", "typeof", "undefined", "var", "void", "while",
]);
// ...of which these are legal JS identifiers, so acorn accepts them as variable names.
const KEYWORDS_USABLE_AS_JS_NAMES = new Set(["of", "let", "static"]);

const FUNCTION_TYPES = ["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"];
const CLASS_TYPES = ["ClassDeclaration", "ClassExpression"];

const isFunction = (node) => node != null && FUNCTION_TYPES.includes(node.type);
const isParamOf = (node, parent) => isFunction(parent) && parent.params.includes(node);
const isPlainName = (key) => key.type === "Identifier" && !ESPRUINO_KEYWORDS.has(key.name);
const keyText = (key) => (key.type === "Identifier" ? key.name : key.type === "Literal" ? JSON.stringify(key.value) : "[...]");

function describeSpread(parent) {
  if (parent.type === "ArrayExpression") return "spread in an array literal `[...a]`";
  if (parent.type === "ObjectExpression") return "object spread `{...o}` (use Object.assign)";
  return "spread in call arguments `f(...a)` (use f.apply)";
}

function describePattern(parent, ancestors) {
  const head = ancestors[ancestors.length - 4]; // for (const [a] of ...): loop > declaration > declarator > pattern
  if (parent.type === "VariableDeclarator" && head && (head.type === "ForOfStatement" || head.type === "ForInStatement")) {
    return "destructuring in a for-of/for-in head";
  }
  if (isFunction(parent)) return "destructuring parameter";
  if (parent.type === "AssignmentPattern") return "destructuring parameter with a default";
  if (parent.type === "VariableDeclarator") return "destructuring declaration";
  if (parent.type === "AssignmentExpression") return "destructuring assignment";
  if (parent.type === "CatchClause") return "destructuring catch parameter";
  if (parent.type === "ForOfStatement" || parent.type === "ForInStatement") return "destructuring in a for-of/for-in head";
  return "destructuring";
}

// Syntax Espruino does not parse (or parses wrongly). `when(node, parent, ancestors)`
// decides; `message` is a string or a function of (node, parent, ancestors).
/** Whether `node` reads `this` of the enclosing scope (not inside a nested non-arrow function). */
function usesLexicalThis(node) {
  let found = false;
  walk.recursive(node, null, {
    ThisExpression() { found = true; },
    FunctionExpression() {},
    FunctionDeclaration() {},
  });
  return found;
}

const SYNTAX_RULES = [
  { on: "AssignmentPattern", when: isParamOf, message: "default parameter `f(a = 1)`" },
  { on: "RestElement", when: isParamOf, message: "rest parameter `f(...args)` (use `arguments`)" },
  { on: "SpreadElement", message: (node, parent) => describeSpread(parent) },
  {
    on: ["ObjectPattern", "ArrayPattern"],
    // report the outermost pattern only
    when: (node, parent, ancestors) => !ancestors.slice(0, -1).some((a) => a.type === "ObjectPattern" || a.type === "ArrayPattern"),
    message: (node, parent, ancestors) => describePattern(parent, ancestors),
  },
  { on: "Property", when: (node) => node.computed, message: "computed key `{[k]: v}` in an object literal" },
  { on: ["MethodDefinition", "PropertyDefinition"], when: (node) => node.computed, message: "computed member name `[k]` in a class" },
  {
    on: "MethodDefinition",
    when: (node) => !node.computed && node.key.type !== "PrivateIdentifier" && !isPlainName(node.key),
    message: (node) => `class method name ${keyText(node.key)} is not a plain identifier (string names and keywords fail)`,
  },
  {
    on: "Property", // measured: `{get of() {}}` and `{get "x"() {}}` fail
    when: (node) => (node.kind === "get" || node.kind === "set") && !node.computed && !isPlainName(node.key),
    message: (node) => `getter/setter name ${keyText(node.key)} is not a plain identifier`,
  },
  { on: "PropertyDefinition", message: "class field in a class body (lands on the prototype; assign it in the constructor)" },
  { on: "StaticBlock", message: "static block in a class body" },
  { on: "PrivateIdentifier", message: "#private member" },
  {
    on: CLASS_TYPES,
    when: (node) => node.superClass != null && node.superClass.type !== "Identifier",
    message: "`extends` takes a plain identifier only",
  },
  {
    // measured (2v29): skipping such an arrow in a branch not taken (`if`, `&&`, `?:`) fails an
    // ASSERT in jsvar.c and the interpreter exits. The build lowers arrows to functions.
    on: "ArrowFunctionExpression",
    when: (node) => usesLexicalThis(node.body),
    message: "arrow function using `this` (Espruino dies when it skips one in a branch not taken)",
  },
  { on: "ChainExpression", message: "optional chaining `?.`" },
  { on: "BinaryExpression", when: (node) => node.operator === "**", message: "exponent operator `**` (use Math.pow)" },
  { on: "AssignmentExpression", when: (node) => node.operator === "**=", message: "exponent assignment `**=` (use Math.pow)" },
  {
    on: "AssignmentExpression",
    when: (node) => ["&&=", "||=", "??="].includes(node.operator),
    message: (node) => `logical assignment \`${node.operator}\``,
  },
  { on: FUNCTION_TYPES, when: (node) => node.generator, message: "generator function" },
  { on: FUNCTION_TYPES, when: (node) => node.async, message: "async function (use Promise.then)" },
  { on: "LabeledStatement", message: "labelled statement" },
  { on: "MetaProperty", message: (node) => `\`${node.meta.name}.${node.property.name}\` is not supported` },
  { on: "TaggedTemplateExpression", message: "tagged template (\"Tagged Templates are not supported\")" },
  { on: "ImportExpression", message: "dynamic import() (use require)" },
  { on: "Literal", when: (node) => node.bigint !== undefined, message: "BigInt literal" },
  { on: "Literal", when: (node) => typeof node.value === "number" && node.raw.includes("_"), message: "numeric separator `1_000`" },
  { on: "CatchClause", when: (node) => node.param == null, message: "optional catch binding `catch {` (write `catch (e) {`)" },
  {
    on: "Identifier",
    when: (node, parent) => KEYWORDS_USABLE_AS_JS_NAMES.has(node.name) && !isPropertyName(node, parent),
    message: (node) => `\`${node.name}\` is a keyword in Espruino and cannot be an identifier`,
  },
];

const MISSING_GLOBALS = new Set([
  "Map", "Set", "WeakMap", "WeakSet", "Symbol", "Proxy", "Reflect", "BigInt",
  // measured
  "WeakRef", "FinalizationRegistry", "queueMicrotask", "structuredClone", "setImmediate",
  "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "Intl",
  "RangeError", "EvalError", "URIError", "AggregateError",
  "SharedArrayBuffer", "Atomics", "BigInt64Array", "BigUint64Array",
]);

const MISSING_STATICS = {
  Array: ["from", "of"],
  Number: ["isInteger", "isFinite", "isNaN", "isSafeInteger", "parseInt", "parseFloat", "EPSILON",
    "MAX_SAFE_INTEGER", "MIN_SAFE_INTEGER" /* measured */],
  Math: ["trunc", "imul", "hypot", "cbrt", "log2", "log10", "clz32", "fround",
    "expm1", "log1p", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh" /* measured */],
  String: ["fromCodePoint", "raw"],
  Object: ["freeze", "is",
    "seal", "preventExtensions", "isFrozen", "isSealed", "isExtensible", "hasOwn", "groupBy" /* measured */],
  ArrayBuffer: ["isView"],
  Promise: ["race", "allSettled", "any"], // measured
  Date: ["UTC"], // measured
  Error: ["captureStackTrace"], // measured
};

// Flagged on any receiver: names distinctive enough not to be our own methods.
const MISSING_METHODS = new Set([
  "flat", "flatMap", "findLast", "at", "trimStart", "trimEnd", "codePointAt", "normalize",
  "localeCompare", "matchAll",
  // measured
  "findLastIndex", "copyWithin", "reduceRight", "toSorted", "toReversed", "toSpliced",
  "trimLeft", "trimRight", "toLocaleUpperCase", "toLocaleLowerCase", "isWellFormed",
  "toLocaleString", "toLocaleDateString", "toLocaleTimeString", "toPrecision", "toExponential",
  "finally",
]);

// Strings have these, arrays do not: flagged only when the receiver is visibly an array.
const ARRAY_ONLY_METHODS = new Set(["lastIndexOf"]);

// Measured: `Array.prototype.slice` and friends read as undefined (`[].slice` works).
// Object.prototype and Error.prototype members do exist.
const PROTOTYPES_WITHOUT_MEMBERS = new Set([
  "Array", "String", "Number", "Function", "Date", "Promise", "RegExp",
  "Uint8Array", "Uint8ClampedArray", "Int8Array", "Uint16Array", "Int16Array",
  "Uint32Array", "Int32Array", "Float32Array", "Float64Array",
]);

const MISSING_MODULES = new Set(["url"]);

// Regex features Espruino's engine (src/jswrap_regexp.c) lacks; scanRegex reports the keys.
const REGEX_PROBLEMS = {
  optional: "`?` quantifier",
  lazy: "lazy quantifier `*?`/`+?`",
  counted: "counted quantifier `{n}`/`{n,m}` (never matches)",
  nonCapturing: "non-capturing group `(?:`",
  lookahead: "lookahead `(?=`/`(?!`",
  lookbehind: "lookbehind `(?<=`/`(?<!`",
  namedGroup: "named group `(?<name>`",
  groupModifier: "group modifier `(?flags:`",
  backreference: "backreference `\\1`",
  namedBackreference: "named backreference `\\k<name>`",
  wordBoundary: "word boundary `\\b`/`\\B` (`\\b` is backspace there)",
  tooManyGroups: "more than 9 capture groups",
  unicodeProperty: "unicode property escape `\\p{...}`",
  unicodeEscape: "`\\u` escape (use `\\x` or the character itself)", // measured
  quantifiedGroup: "quantifier after a group `(...)*` (only single characters repeat)", // measured
  groupAlternation: "alternation inside a group `(a|b)` (matches as soon as one branch ends)", // measured
};

// ---------------------------------------------------------------------------
// Helpers

// Is this Identifier a property name rather than a variable (`o.x`, `{x: 1}`, `x() {}`)?
function isPropertyName(node, parent) {
  if (!parent) return false;
  switch (parent.type) {
    case "MemberExpression": return parent.property === node && !parent.computed;
    case "Property": return parent.key === node && !parent.computed && parent.value !== node;
    case "MethodDefinition": case "PropertyDefinition": return parent.key === node && !parent.computed;
    case "LabeledStatement": case "BreakStatement": case "ContinueStatement": return true;
    case "MetaProperty": return true;
    default: return false;
  }
}

// The property name of a member access, `o.x` or `o["x"]`; undefined if dynamic.
function memberName(node) {
  if (!node.computed && node.property.type === "Identifier") return node.property.name;
  if (node.computed && node.property.type === "Literal" && typeof node.property.value === "string") return node.property.value;
  return undefined;
}

// A string known at build time: "x" or `x` without substitutions.
function staticString(node) {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

// acorn-walk base that visits every child node (the stock one skips keys, patterns'
// identifiers and private names), so `fullAncestor` calls back for every node.
function visitChildren(node, state, visit) {
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item.type === "string") visit(item, state);
    } else if (value && typeof value.type === "string") {
      visit(value, state);
    }
  }
}
const VISIT_EVERY_CHILD = new Proxy({}, { get: () => visitChildren });

function childNodes(node) {
  const out = [];
  visitChildren(node, null, (child) => out.push(child));
  return out;
}

// Names bound by a declaration target (`x`, `{a, b: [c]}`...).
function boundNames(pattern, out = []) {
  if (!pattern) return out;
  switch (pattern.type) {
    case "Identifier": out.push(pattern.name); break;
    case "ObjectPattern": for (const p of pattern.properties) boundNames(p.type === "RestElement" ? p.argument : p.value, out); break;
    case "ArrayPattern": for (const e of pattern.elements) boundNames(e, out); break;
    case "AssignmentPattern": boundNames(pattern.left, out); break;
    case "RestElement": boundNames(pattern.argument, out); break;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Regex scanner: walks a pattern once, tracking escapes, character classes, groups and
// what the previous token was; returns [{offset, kind}] with kind a key of REGEX_PROBLEMS.

function scanRegex(pattern) {
  const found = [];
  const add = (offset, kind) => found.push({ offset, kind });
  const openGroups = [];
  let captures = 0;
  let inClass = false;
  let prev = "start"; // "atom", "group" (a `)`), "quantifier" or "start" (nothing to repeat)

  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const next = pattern[i + 1];
      if ((next === "p" || next === "P") && pattern[i + 2] === "{") add(i, "unicodeProperty");
      else if (next === "u") add(i, "unicodeEscape");
      else if (!inClass) {
        if (next === "b" || next === "B") add(i, "wordBoundary");
        else if (next >= "1" && next <= "9") add(i, "backreference");
        else if (next === "k" && pattern[i + 2] === "<") add(i, "namedBackreference");
      }
      i++;
      prev = "atom";
      continue;
    }
    if (inClass) {
      if (ch === "]") { inClass = false; prev = "atom"; }
      continue;
    }
    switch (ch) {
      case "[":
        inClass = true;
        if (pattern[i + 1] === "^") i++;
        break;
      case "(": {
        const ahead = pattern.slice(i + 1, i + 4);
        if (ahead.startsWith("?:")) add(i, "nonCapturing");
        else if (ahead.startsWith("?=") || ahead.startsWith("?!")) add(i, "lookahead");
        else if (ahead.startsWith("?<=") || ahead.startsWith("?<!")) add(i, "lookbehind");
        else if (ahead.startsWith("?<")) { add(i, "namedGroup"); captures++; }
        else if (ahead.startsWith("?")) add(i, "groupModifier");
        else captures++;
        if (ahead.startsWith("?")) i++; // the `?` here is not a quantifier
        openGroups.push(i);
        prev = "start";
        break;
      }
      case ")":
        openGroups.pop();
        prev = "group";
        break;
      case "|":
        if (openGroups.length > 0) add(i, "groupAlternation");
        prev = "start";
        break;
      case "*": case "+":
        if (prev === "group") add(i, "quantifiedGroup");
        prev = "quantifier";
        break;
      case "?":
        if (prev === "quantifier") add(i, "lazy");
        else add(i, "optional");
        if (prev === "group") add(i, "quantifiedGroup");
        prev = "quantifier";
        break;
      case "{": {
        const counted = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i));
        if (counted) {
          add(i, "counted");
          i += counted[0].length - 1;
          prev = "quantifier";
        } else {
          prev = "atom"; // a literal `{`
        }
        break;
      }
      case "^": case "$":
        prev = "start";
        break;
      default:
        prev = "atom";
    }
  }
  if (captures > 9) add(0, "tooManyGroups");
  // one report per kind per pattern
  return found.filter((f, i) => found.findIndex((g) => g.kind === f.kind) === i);
}

// ---------------------------------------------------------------------------
// for-loop closures: Espruino does not bind a `let`/`const` loop variable per iteration,
// so a closure made in the body sees the last value.

const LOOP_TYPES = ["ForStatement", "ForInStatement", "ForOfStatement"];
const BLOCK_TYPES = ["BlockStatement", "StaticBlock", "SwitchStatement", "Program"];

function loopHeadNames(loop) {
  const decl = loop.type === "ForStatement" ? loop.init : loop.left;
  if (!decl || decl.type !== "VariableDeclaration" || decl.kind === "var") return [];
  return decl.declarations.flatMap((d) => boundNames(d.id));
}

// `var` names of a function body (not those of nested functions).
function varNames(node, out = []) {
  if (node.type === "VariableDeclaration" && node.kind === "var") for (const d of node.declarations) boundNames(d.id, out);
  for (const child of childNodes(node)) if (!isFunction(child)) varNames(child, out);
  return out;
}

// Lexical names a block declares directly (let, const, class, function).
function blockNames(block) {
  const statements = block.type === "SwitchStatement" ? block.cases.flatMap((c) => c.consequent) : block.body;
  const out = [];
  for (const s of statements) {
    if (s.type === "VariableDeclaration" && s.kind !== "var") for (const d of s.declarations) boundNames(d.id, out);
    else if ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id) out.push(s.id.name);
  }
  return out;
}

// Does `node` open a scope in which `name` means something else?
function shadows(node, name) {
  if (isFunction(node)) {
    if (node.type === "FunctionExpression" && node.id && node.id.name === name) return true;
    if (node.params.some((p) => boundNames(p).includes(name))) return true;
    if (node.body.type === "BlockStatement" && (varNames(node.body).includes(name) || blockNames(node.body).includes(name))) return true;
    return false;
  }
  if (BLOCK_TYPES.includes(node.type)) return blockNames(node).includes(name);
  if (LOOP_TYPES.includes(node.type)) return loopHeadNames(node).includes(name);
  if (node.type === "CatchClause") return boundNames(node.param).includes(name);
  if (node.type === "ClassExpression") return node.id != null && node.id.name === name;
  return false;
}

// First reference to `name` inside a closure within `node`, or null.
function capturedReference(node, parent, name, inClosure) {
  if (node.type === "Identifier") {
    return inClosure && node.name === name && !isPropertyName(node, parent) ? node : null;
  }
  if (shadows(node, name)) return null;
  const closure = inClosure || isFunction(node);
  for (const child of childNodes(node)) {
    const ref = capturedReference(child, node, name, closure);
    if (ref) return ref;
  }
  return null;
}

function checkLoopClosures(loop, report) {
  for (const name of loopHeadNames(loop)) {
    const ref = capturedReference(loop.body, loop, name, false);
    if (ref) report(ref, `\`${name}\` from a for-loop head is used in a closure made in the loop; Espruino does not bind it per iteration (copy it into a const in the body)`);
  }
}

// ---------------------------------------------------------------------------
// The checker

export function checkSource(code) {
  const findings = [];
  const at = (loc) => ({ line: loc.line, col: loc.column + 1 });
  const report = (node, message) => findings.push({ ...at(node.loc.start), message });

  let ast;
  try {
    ast = acorn.parse(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      locations: true,
      allowReturnOutsideFunction: true,
      allowHashBang: true,
    });
  } catch (err) {
    const loc = err.loc || { line: 1, column: 0 };
    return [{ ...at(loc), message: `does not parse: ${err.message.replace(/ \(\d+:\d+\)$/, "")}` }];
  }

  const rulesByType = new Map();
  for (const rule of SYNTAX_RULES) {
    for (const type of [].concat(rule.on)) {
      if (!rulesByType.has(type)) rulesByType.set(type, []);
      rulesByType.get(type).push(rule);
    }
  }

  const checkRegex = (pattern, flags, node, offsetBase) => {
    for (const { offset, kind } of scanRegex(pattern)) {
      const loc = offsetBase === undefined
        ? node.loc.start
        : { line: node.loc.start.line, column: node.loc.start.column + offsetBase + offset };
      findings.push({ ...at(loc), message: `regex: ${REGEX_PROBLEMS[kind]}` });
    }
    if (flags !== undefined && /[^gi]/.test(flags)) {
      report(node, `regex: flag(s) \`${flags.replace(/[gi]/g, "")}\` (Espruino has only g and i)`);
    }
  };

  walk.fullAncestor(ast, (node, _state, ancestors) => {
    const parent = ancestors[ancestors.length - 2];

    for (const rule of rulesByType.get(node.type) || []) {
      if (rule.when && !rule.when(node, parent, ancestors)) continue;
      report(node, `syntax: ${typeof rule.message === "function" ? rule.message(node, parent, ancestors) : rule.message}`);
    }

    switch (node.type) {
      case "Identifier":
        if (MISSING_GLOBALS.has(node.name) && !isPropertyName(node, parent) &&
            !(parent && parent.type === "UnaryExpression" && parent.operator === "typeof")) {
          report(node, `\`${node.name}\` does not exist in Espruino`);
        }
        break;

      case "MemberExpression": {
        const name = memberName(node);
        if (name === undefined) break;
        const obj = node.object;
        if (obj.type === "Identifier" && (MISSING_STATICS[obj.name] || []).includes(name)) {
          report(node, `\`${obj.name}.${name}\` does not exist in Espruino`);
        } else if (MISSING_METHODS.has(name)) {
          report(node.property, `\`.${name}\` does not exist in Espruino`);
        } else if (ARRAY_ONLY_METHODS.has(name) && isArrayReceiver(obj)) {
          report(node.property, `\`.${name}\` does not exist on Espruino arrays (strings have it)`);
        }
        if (obj.type === "MemberExpression" && memberName(obj) === "prototype" && obj.object.type === "Identifier" &&
            PROTOTYPES_WITHOUT_MEMBERS.has(obj.object.name) &&
            !(parent && parent.type === "AssignmentExpression" && parent.left === node)) {
          report(node, `\`${obj.object.name}.prototype.${name}\` reads as undefined in Espruino (use an instance, e.g. \`[].slice.call(x)\`)`);
        }
        break;
      }

      case "CallExpression": case "NewExpression": {
        const callee = node.callee;
        if (callee.type === "Identifier" && callee.name === "require") {
          const mod = staticString(node.arguments[0]);
          if (mod !== undefined && MISSING_MODULES.has(mod)) report(node, `require("${mod}"): Espruino has no such module`);
        }
        if (callee.type === "Identifier" && callee.name === "RegExp") {
          const pattern = staticString(node.arguments[0]);
          if (pattern !== undefined) checkRegex(pattern, staticString(node.arguments[1]), node.arguments[0]);
        }
        break;
      }

      case "Literal":
        if (node.regex) checkRegex(node.regex.pattern, node.regex.flags, node, 1);
        break;

      case "ForStatement": case "ForInStatement": case "ForOfStatement":
        checkLoopClosures(node, report);
        break;
    }
  }, VISIT_EVERY_CHILD);

  findings.sort((a, b) => a.line - b.line || a.col - b.col);
  return findings;
}

// `[...].lastIndexOf`, `Array.prototype.lastIndexOf`
function isArrayReceiver(obj) {
  if (obj.type === "ArrayExpression") return true;
  return obj.type === "MemberExpression" && memberName(obj) === "prototype" &&
    obj.object.type === "Identifier" && obj.object.name === "Array";
}

export { scanRegex, REGEX_PROBLEMS };

// ---------------------------------------------------------------------------
// CLI

function main(args) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  let files = args;
  if (files.length === 0) {
    const dist = path.join(root, "dist");
    let names = [];
    try { names = readdirSync(dist).filter((n) => n.endsWith(".js")).sort(); } catch { /* no dist/ */ }
    files = names.map((n) => path.relative(process.cwd(), path.join(dist, n)));
    // The modules (build/modules.mjs) run on the clock as much as the bundles do.
    let modules = [];
    try { modules = readdirSync(path.join(dist, "storage")).filter((n) => n.startsWith("m.")).sort(); } catch { /* none */ }
    files = files.concat(modules.map((n) => path.relative(process.cwd(), path.join(dist, "storage", n))));
    if (files.length === 0) {
      console.error("check-bundle: no bundles in dist/ (run `npm run build` first)");
      return 1;
    }
  }

  let failed = 0;
  for (const file of files) {
    let code;
    try {
      code = readFileSync(file, "utf8");
    } catch (err) {
      console.error(`${file}: cannot read: ${err.message}`);
      failed++;
      continue;
    }
    const findings = checkSource(code);
    for (const f of findings) console.log(`${file}:${f.line}:${f.col}: ${f.message}`);
    const bytes = Buffer.byteLength(code);
    const size = `${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB)`;
    if (findings.length === 0) {
      console.log(`${file}: ok, ${size}`);
    } else {
      console.log(`${file}: ${findings.length} finding(s), ${size}`);
      failed++;
    }
  }
  return failed ? 1 : 0;
}

const invokedDirectly = process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) process.exitCode = main(process.argv.slice(2));

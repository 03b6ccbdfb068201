// Tests for build/check-bundle.mjs: for each rule, a snippet it must flag and a close
// variant it must leave alone.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkSource, scanRegex } from "../../build/check-bundle.mjs";

const messages = (code) => checkSource(code).map((f) => f.message);

// [rule, flagged snippet, expected message (regex), clean snippet]
const CASES = [
  // syntax
  ["default parameter", "function f(a=1){}", /default parameter/, "function f(a){}"],
  ["default parameter (arrow)", "var f=(a=1)=>a", /default parameter/, "var f=(a)=>a"],
  ["rest parameter", "function f(...a){}", /rest parameter/, "function f(){return arguments}"],
  ["spread in call", "f(...a)", /spread in call/, "f.apply(null,a)"],
  ["spread in array", "var b=[...a]", /spread in an array/, "var b=a.slice()"],
  ["object spread", "var b={...a}", /object spread/, "var b=Object.assign({},a)"],
  ["destructuring declaration", "var {a}=o", /destructuring declaration/, "var a=o.a"],
  ["array destructuring", "let [a,b]=o", /destructuring declaration/, "let a=o[0],b=o[1]"],
  ["destructuring assignment", "var a;[a]=o", /destructuring assignment/, "var a;a=o[0]"],
  ["destructuring parameter", "function f({a}){}", /destructuring parameter/, "function f(o){}"],
  ["destructuring for-of head", "for (const [k,v] of e){}", /destructuring in a for-of/, "for (const kv of e){}"],
  ["destructuring catch param", "try{}catch({message}){}", /destructuring catch/, "try{}catch(e){}"],
  ["computed key", "var o={[k]:1}", /computed key/, "var o={k:1}"],
  ["computed class member", "class A{[k](){}}", /computed member name/, "class A{k(){}}"],
  ["optional chaining", "a?.b", /optional chaining/, "a&&a.b"],
  ["arrow using this", "class L{m(q){q||(this.x=()=>this.y)}}", /arrow function using `this`/,
    "class L{m(q){var s=this;q||(this.x=function(){return s.y});var f=()=>function(){return this}}}"],
  ["optional call", "a.b?.()", /optional chaining/, "a.b&&a.b()"],
  ["exponent", "x=a**2", /exponent operator/, "x=Math.pow(a,2)"],
  ["exponent assignment", "x**=2", /exponent assignment/, "x*=2"],
  ["generator", "function* g(){yield 1}", /generator/, "function g(){return 1}"],
  ["async function", "async function f(){await x}", /async function/, "function f(){return x.then(g)}"],
  ["async arrow", "var f=async()=>1", /async function/, "var f=()=>1"],
  ["labelled statement", "a: for(;;){break a}", /labelled statement/, "for(;;){break}"],
  ["private field", "class A{#x;constructor(){this.#x=1}}", /#private/, "class A{constructor(){this.x=1}}"],
  ["class field", "class A{x=1}", /class field/, "class A{constructor(){this.x=1}}"],
  ["static block", "class A{static{init()}}", /static block/, "class A{static init(){}}"],
  ["string method name", "class A{'x-y'(){}}", /class method name/, "class A{xy(){}}"],
  ["keyword method name", "class A{delete(){}}", /class method name delete/, "class A{remove(){}}"],
  ["keyword getter name", "class A{get of(){}}", /class method name of/, "class A{get off(){}}"],
  ["object getter keyword name", "var o={get new(){return 1}}", /getter\/setter name new/, "var o={get fresh(){return 1}, delete:1, of:2}"],
  ["extends a non-identifier", "class A extends a.B{}", /extends/, "var B=a.B;class A extends B{}"],
  ["of as identifier", "var of=1", /`of` is a keyword/, "var o={of:1};o.of"],
  ["let as identifier", "var let=1", /`let` is a keyword/, "let x=1"],
  ["regex u flag", "var r=/a/u", /flag\(s\) `u`/, "var r=/a/gi"],
  ["regex y flag", "var r=/a/y", /flag\(s\) `y`/, "var r=/a/g"],
  ["regex s flag", "var r=/a/s", /flag\(s\) `s`/, "var r=/a/i"],
  ["regex d flag", "var r=/a/d", /flag\(s\) `d`/, "var r=/a/"],
  ["RegExp flags", "new RegExp('a','u')", /flag\(s\) `u`/, "new RegExp('a','g')"],
  ["new.target", "function F(){return new.target}", /new\.target/, "function F(){return this}"],
  ["tagged template", "var s=tag`a${b}`", /tagged template/, "var s=`a${b}`"],
  ["BigInt literal", "var n=10n", /BigInt literal/, "var n=10"],
  ["numeric separator", "var n=1_000", /numeric separator/, "var n=1000"],
  ["optional catch binding", "try{}catch{}", /optional catch binding/, "try{}catch(e){}"],
  ["logical assignment &&=", "a&&=b", /logical assignment `&&=`/, "a=a&&b"],
  ["logical assignment ||=", "a||=b", /logical assignment `\|\|=`/, "a=a||b"],
  ["logical assignment ??=", "a??=b", /logical assignment `\?\?=`/, "a=a??b"],
  ["dynamic import", "import('x')", /dynamic import/, "require('x')"],

  // builtins
  ["Map", "var m=new Map()", /`Map` does not exist/, "var m={}; if (typeof Map!=='undefined') ok()"],
  ["Set", "var s=new Set()", /`Set` does not exist/, "var s={Set:1}; s.Set"],
  ["WeakMap", "new WeakMap()", /`WeakMap`/, "new Object()"],
  ["WeakSet", "new WeakSet()", /`WeakSet`/, "new Object()"],
  ["Symbol", "var i=Symbol.iterator", /`Symbol`/, "var i='iterator'"],
  ["Proxy", "new Proxy(o,h)", /`Proxy`/, "o"],
  ["Reflect", "Reflect.ownKeys(o)", /`Reflect`/, "Object.keys(o)"],
  ["Array.from", "Array.from(x)", /`Array\.from`/, "Array.isArray(x)"],
  ["Array.of", "Array.of(1)", /`Array\.of`/, "[1]"],
  ["Number.isInteger", "Number.isInteger(x)", /`Number\.isInteger`/, "x%1===0"],
  ["Number.isFinite", "Number.isFinite(x)", /`Number\.isFinite`/, "isFinite(x)"],
  ["Number.isNaN", "Number.isNaN(x)", /`Number\.isNaN`/, "isNaN(x)"],
  ["Number.isSafeInteger", "Number.isSafeInteger(x)", /`Number\.isSafeInteger`/, "x===Math.floor(x)"],
  ["Number.parseInt", "Number.parseInt(x)", /`Number\.parseInt`/, "parseInt(x)"],
  ["Number.parseFloat", "Number['parseFloat'](x)", /`Number\.parseFloat`/, "parseFloat(x)"],
  ["Number.EPSILON", "var e=Number.EPSILON", /`Number\.EPSILON`/, "var e=Number.MAX_VALUE"],
  ["Math.trunc", "Math.trunc(x)", /`Math\.trunc`/, "Math.floor(x)"],
  ["Math.imul", "Math.imul(a,b)", /`Math\.imul`/, "a*b"],
  ["Math.hypot", "Math.hypot(a,b)", /`Math\.hypot`/, "Math.sqrt(a*a+b*b)"],
  ["Math.cbrt", "Math.cbrt(a)", /`Math\.cbrt`/, "Math.pow(a,1/3)"],
  ["Math.log2", "Math.log2(a)", /`Math\.log2`/, "Math.log(a)/Math.LN2"],
  ["Math.log10", "Math.log10(a)", /`Math\.log10`/, "Math.log(a)/Math.LN10"],
  ["Math.clz32", "Math.clz32(a)", /`Math\.clz32`/, "Math.abs(a)"],
  ["Math.fround", "Math.fround(a)", /`Math\.fround`/, "Math.round(a)"],
  ["String.fromCodePoint", "String.fromCodePoint(65)", /`String\.fromCodePoint`/, "String.fromCharCode(65)"],
  ["String.raw", "String.raw(s)", /`String\.raw`/, "String(s)"],
  ["Object.freeze", "Object.freeze(o)", /`Object\.freeze`/, "Object.keys(o)"],
  ["Object.is", "Object.is(a,b)", /`Object\.is`/, "Object.assign(a,b)"],
  ["ArrayBuffer.isView", "ArrayBuffer.isView(a)", /`ArrayBuffer\.isView`/, "a instanceof Uint8Array"],
  [".flat", "a.flat()", /`\.flat`/, "a.slice()"],
  [".flatMap", "a.flatMap(f)", /`\.flatMap`/, "a.map(f)"],
  [".findLast", "a.findLast(f)", /`\.findLast`/, "a.find(f)"],
  [".at", "a.at(-1)", /`\.at`/, "a[a.length-1]"],
  [".trimStart", "s.trimStart()", /`\.trimStart`/, "s.trim()"],
  [".trimEnd", "s.trimEnd()", /`\.trimEnd`/, "s.trim()"],
  [".codePointAt", "s.codePointAt(0)", /`\.codePointAt`/, "s.charCodeAt(0)"],
  [".normalize", "s.normalize()", /`\.normalize`/, "s.toLowerCase()"],
  [".localeCompare", "a.localeCompare(b)", /`\.localeCompare`/, "a<b?-1:a>b?1:0"],
  [".matchAll", "s.matchAll(r)", /`\.matchAll`/, "s.match(r)"],
  [".lastIndexOf on an array literal", "[1,2].lastIndexOf(1)", /`\.lastIndexOf` does not exist on Espruino arrays/, "s.lastIndexOf('a')"],
  ["builtin prototype member", "Array.prototype.slice.call(arguments)", /`Array\.prototype\.slice` reads as undefined/, "[].slice.call(arguments); Object.prototype.hasOwnProperty.call(o,k)"],
  ["require('url')", "var u=require('url')", /require\("url"\)/, "var s=require('Storage')"],

  // regex literals
  ["regex ? quantifier", "/ab?c/", /`\?` quantifier/, "/ab*c/"],
  ["regex lazy *?", "/a*?b/", /lazy quantifier/, "/a*b/"],
  ["regex lazy +?", "/a+?b/", /lazy quantifier/, "/a+b/"],
  ["regex {n}", "/a{2}/", /counted quantifier/, "/[{]/"],
  ["regex {n,}", "/a{2,}/", /counted quantifier/, "/a\\{2,}/"],
  ["regex {n,m}", "/\\d{1,3}/", /counted quantifier/, "/[{1,3}]/"],
  ["regex ? inside class is literal", "/a?/", /`\?` quantifier/, "/[?]/"],
  ["regex non-capturing group", "/(?:ab)c/", /non-capturing/, "/(ab)c/"],
  ["regex lookahead", "/a(?=b)/", /lookahead/, "/a(b)/"],
  ["regex negative lookahead", "/a(?!b)/", /lookahead/, "/a[^b]/"],
  ["regex lookbehind", "/(?<=a)b/", /lookbehind/, "/(a)b/"],
  ["regex named group", "/(?<x>a)/", /named group/, "/(a)/"],
  ["regex backreference", "/(a)\\1/", /backreference/, "/(a)\\\\1/"],
  ["regex word boundary", "/\\bfoo\\b/", /word boundary/, "/[\\b]foo/"],
  ["regex \\B", "/\\Bfoo/", /word boundary/, "/\\wfoo/"],
  ["regex > 9 groups", "/(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)/", /more than 9 capture groups/, "/(a)(b)(c)(d)(e)(f)(g)(h)(i)/"],
  ["regex unicode property", "/\\p{L}/u", /unicode property/, "/[a-z]/i"],
  ["regex \\u escape", "/\\u0041/", /`\\u` escape/, "/\\x41/"],
  ["regex quantified group", "/(ab)+/", /quantifier after a group/, "/(a+b)/"],
  ["regex alternation in a group", "/^(GET|POST) /", /alternation inside a group/, "/^GET |^POST /"],

  // new RegExp with a literal string
  ["RegExp string {n}", "new RegExp('a{2}')", /counted quantifier/, "new RegExp('[{]')"],
  ["RegExp string (?:", "RegExp('(?:a)')", /non-capturing/, "RegExp('(a)')"],
  ["RegExp template string", "new RegExp(`a?`)", /`\?` quantifier/, "new RegExp(`a*`)"],

  // for-loop closures
  ["for-let closure", "for (let i=0;i<3;i++){ fs.push(()=>i) }", /`i` from a for-loop head/, "for (let i=0;i<3;i++){ const j=i; fs.push(()=>j) }"],
  ["for-let function closure", "for (let i=0;i<3;i++) fs.push(function(){return i})", /`i` from a for-loop head/, "for (var i=0;i<3;i++) fs.push(i)"],
  ["for-of const closure", "for (const x of a){ setTimeout(()=>log(x)) }", /`x` from a for-loop head/, "for (const x of a){ const y=x; setTimeout(()=>log(y)) }"],
  ["for-in closure", "for (const k in o){ on(k, function(){ use(k) }) }", /`k` from a for-loop head/, "for (const k in o){ on(k, function(k){ use(k) }) }"],
  ["nested closure", "for (let i=0;i<3;i++){ f(function(){ return ()=>i }) }", /`i` from a for-loop head/, "for (let i=0;i<3;i++){ f(function(){ var i=0; return ()=>i }) }"],
  ["closure using a property named like the loop var", "for (let i=0;i<3;i++){ f(()=>i) }", /`i`/, "for (let i=0;i<3;i++){ f(()=>o.i); g({i:1}) }"],
];

for (const [name, bad, expected, good] of CASES) {
  test(`flags: ${name}`, () => {
    const found = messages(bad);
    assert.ok(found.some((m) => expected.test(m)), `expected ${expected} for ${bad}, got ${JSON.stringify(found)}`);
  });
  test(`passes: ${name}`, () => {
    assert.equal(messages(good), [], `expected no findings for ${good}`);
  });
}

test("findings carry 1-based line and column", () => {
  const found = checkSource("var a = 1;\nfunction f(b = 2) {}\n");
  assert.equal(found, [{ line: 2, col: 12, message: "syntax: default parameter `f(a = 1)`" }]);
});

test("regex findings point into the pattern", () => {
  const [f] = checkSource("x = /ab{2}/");
  assert.equal([f.line, f.col], [1, 8]);
});

test("unparsable code is one finding", () => {
  const found = checkSource("var = ;");
  assert.is(found.length, 1);
  assert.match(found[0].message, /does not parse/);
});

test("function called before its declaration is not flagged", () => {
  assert.equal(messages("f(); function f() {}"), []);
});

test("scanRegex handles escapes and classes", () => {
  assert.equal(scanRegex("[?{}*+]\\?\\{2}\\(\\?:"), []);
  assert.equal(scanRegex("\\(?").map((f) => f.kind), ["optional"]);
  assert.equal(scanRegex("[]a?").map((f) => f.kind), ["optional"]);
  assert.equal(scanRegex("[^]]{2}").map((f) => f.kind), ["counted"]);
  assert.equal(scanRegex("a{").map((f) => f.kind), []);
});

test("esbuild-style iife output is clean", () => {
  const bundle = `"use strict";(()=>{var __defProp=Object.defineProperty;var __defNormalProp=(obj,key,value)=>key in obj?__defProp(obj,key,{enumerable:!0,configurable:!0,writable:!0,value}):obj[key]=value;var __publicField=(obj,key,value)=>__defNormalProp(obj,typeof key!="symbol"?key+"":key,value);function s(t){return t.trim()}class C{constructor(){__publicField(this,"n",0)}get v(){return this.n}static make(){return new C}}var list=[1,2,3];for(const x of list)console.log(s(String(x)));for(let i=0;i<list.length;i++){const k=list[i];setTimeout(()=>console.log(k),0)}var o={get a(){return 1},b(){return 2},delete:3};var r=/^[A-Za-z0-9_-]+$/;console.log(\`\${o.a}\`,r.test("x"),"abc".lastIndexOf("c"),C.make().v,o.delete)})();`;
  assert.equal(messages(bundle), []);
});

test.run();

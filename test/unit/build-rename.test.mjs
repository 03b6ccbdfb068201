import { test } from "uvu";
import * as assert from "uvu/assert";
import { atRoot, endBareReturns, inlineConstants, renameOf } from "../../build/espruino-bundle.mjs";

test("variables named `of` are renamed; property names and shorthand keys stay", () => {
  assert.is(renameOf("var of=1;function f(of){return {of, x: of, of: 2}.of + of;}"),
    "var of_0=1;function f(of_0){return {of:of_0, x: of_0, of: 2}.of + of_0;}");
});

test("the new name is one the code does not use yet", () => {
  assert.is(renameOf("var of_0=1,of=2;"), "var of_0=1,of_1=2;");
});

test("code without such a variable comes back unchanged", () => {
  const code = "for (const a of b) c.of(a);";
  assert.is(renameOf(code), code);
});

test("at the root, top-level variables named like Espruino's root names (E, pins) are renamed", () => {
  assert.is(atRoot("var E=1,D12=2,a=E+D12;function f(D12){return D12+a.E;}"),
    "var E_0=1,D12_0=2,a=E_0+D12_0;function f(D12_0){return D12_0+a.E;}");
});

test("at the root, the interpreter's own names referenced by the code stay", () => {
  const code = "var a=E.toString(D12);function f(){return E;}";
  assert.is(atRoot(code), code);
});

test("a return without a value right before a closing brace gets its semicolon", () => {
  assert.is(endBareReturns("function f(x){if(x)return}function g(x){if(x)return 1;else return }"),
    "function f(x){if(x)return;}function g(x){if(x)return 1;else return; }");
  const fine = "function f(x){if(x){return}return;}";
  assert.is(endBareReturns(fine), "function f(x){if(x){return;}return;}");
});

test("top-level numbers, booleans and null are inlined where read, their declarations dropped", () => {
  assert.is(inlineConstants("var a=1,b=f(),c=-2.5;var d=1.7e12,e=!0;function g(x){return a+x+c+d.toFixed(1)+{a}.a+o.a+e}"),
    "var b=f();function g(x){return (1)+x+(-2.5)+(1.7e12).toFixed(1)+{a:(1)}.a+o.a+(!0)}");
});

test("a constant kept beside others in one declaration loses only its own declarator", () => {
  assert.is(inlineConstants("var a=1,b=a+1,c=2;var x=a,y=2;g(b,c,x,y)"), "var b=(1)+1;var x=(1);g(b,(2),x,(2))");
});

test("variables assigned again, strings, and names also bound elsewhere stay", () => {
  const code = "var a=1,s=\"x\",h=4;a++;function k(h){return h+s}";
  assert.is(inlineConstants(code), code);
});

test.run();

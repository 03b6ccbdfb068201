import { test } from "uvu";
import * as assert from "uvu/assert";
import { toJson, parseJson, utf8Bytes } from "../../firmware/core/json";

// Byte strings as the device holds them: one char per UTF-8 byte.
const bytes = (s: string) => Buffer.from(s, "utf8").toString("latin1");

test("toJson turns Espruino's \\u00XX escapes of bytes above 127 back into raw bytes", () => {
  // What Espruino's JSON.stringify writes for the bytes of "é" (C3 A9).
  const espruinoStyle = { stringify: () => "{\"t\":\"\\u00C3\\u00A9\"}" };
  const real = JSON.stringify;
  (JSON as any).stringify = espruinoStyle.stringify;
  try {
    assert.is(toJson({}), "{\"t\":\"" + bytes("é") + "\"}");
  } finally {
    (JSON as any).stringify = real;
  }
});

test("toJson keeps escaped backslashes and control characters as they are", () => {
  const real = JSON.stringify;
  (JSON as any).stringify = () => "[\"\\\\u00e9\",\"\\u0001\",\"\\\\\\u00e9\"]";
  try {
    // An escaped backslash followed by the text u00e9 is not an escape; \u0001 stays escaped.
    assert.is(toJson(0), "[\"\\\\u00e9\",\"\\u0001\",\"\\\\" + "\u00e9" + "\"]");
  } finally {
    (JSON as any).stringify = real;
  }
  assert.is(toJson(undefined), "null");
});

test("parseJson turns escapes above 0x7F into UTF-8 bytes, surrogate pairs joined", () => {
  assert.equal(parseJson("{\"a\":\"\\u00e9\\u0416\"}")!.value, { a: bytes("éЖ") });
  assert.equal(parseJson("\"\\ud83d\\ude00\"")!.value, bytes("😀"));
  assert.equal(parseJson("\"\\u0041\\\\u00e9\"")!.value, "A\\u00e9");
  assert.equal(parseJson("\"" + bytes("Zürich") + "\"")!.value, bytes("Zürich"));
});

test("parseJson answers undefined for text that is not JSON", () => {
  for (const bad of ["", "{", "{\"a\":}", "nope", "[1,]"]) assert.is(parseJson(bad), undefined, bad);
});

test("utf8Bytes encodes every length", () => {
  assert.is(utf8Bytes(0x41), "A");
  assert.is(utf8Bytes(0xe9), bytes("é"));
  assert.is(utf8Bytes(0x20ac), bytes("€"));
  assert.is(utf8Bytes(0x1f600), bytes("😀"));
});

test.run();

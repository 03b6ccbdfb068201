// Bodies of the payload routes read with their draw lists compiled from the text a command at a
// time (payload/parse-body): the same value as a whole parse with each list compiled, or the
// whole parse itself whenever a list does not read cleanly.
import { test } from "uvu";
import * as assert from "uvu/assert";
import parseBody from "../../firmware/payload/parse-body.mod";
import { compileDraw } from "../../firmware/payload/draw";
import { parseJson } from "../../firmware/core/json";

/** A whole parse with every `draw` list compiled, as parse-body should give it. */
function expected(text: string): unknown {
  const v = (parseJson(text) as { value: unknown }).value;
  for (const b of Array.isArray(v) ? v : [v]) {
    const bag = b as { draw?: unknown };
    if (bag && typeof bag === "object" && Array.isArray(bag.draw)) bag.draw = compileDraw(bag.draw);
  }
  return v;
}

function same(text: string): void {
  const got = parseBody(text);
  assert.ok(got, text);
  assert.equal(got!.value, expected(text), text);
}

test("lists of every command, with colours as arrays and texts holding brackets, read as compiled programs", () => {
  same(JSON.stringify({ text: "hi", draw: [["pixel", 1, 2, "#FF0000"], ["line", 0, 0, 31, 7, [0, 255, 0]], ["rect", 1, 1, 5, 3]] }));
  same(JSON.stringify({ draw: [["text", 1, 1, "a]b[c", "#00F"], ["text", 2, 1, "\"draw\":[1]"], ["pixels", "#FFF", 1, 2, 3, 4]] }));
  same(JSON.stringify({ draw: [["bitmap", 0, 0, 2, 2, ["#F00", [0, 255, 0], "#00F", 16777215]], ["circleFill", 4, 4, 2]] }));
  same(' { "draw" : [ [ "pixel" , 1 , 2 ] , ["rectFill",0,0,4,4,"#0F0"] ] , "progress" : 40 } ');
  same(JSON.stringify({ draw: [] }));
});

test("array bodies: each element's list in its place", () => {
  same(JSON.stringify([{ draw: [["pixel", 0, 0]] }, { text: "b" }, 7, { draw: [["rect", 0, 0, 3, 3, "#123456"]] }]));
});

test("a draw key inside a string is text, not a list", () => {
  const text = JSON.stringify({ text: "\"draw\":[[\"pixel\",1,1]]", draw: [["pixel", 3, 3]] });
  same(text);
  assert.is(((parseBody(text) as { value: { text: string } }).value).text, "\"draw\":[[\"pixel\",1,1]]");
});

test("a list that does not read cleanly is left to the whole parse, so validation answers for it", () => {
  for (const draw of [[["nope", 1, 2]], ["pixel"], [["pixel", "a", 1]], [{ x: 1 }]]) {
    const text = JSON.stringify({ draw });
    assert.equal(parseBody(text), parseJson(text), text);
  }
  // A number where a list was is the sender's, not a placeholder.
  const numeric = JSON.stringify({ draw: 0, text: "x" });
  assert.equal(parseBody(numeric), parseJson(numeric));
});

test("text that is not JSON is undefined, as for any body", () => {
  assert.is(parseBody('{"draw":[["pixel",1,2]],'), undefined);
  assert.is(parseBody('{"draw":[["pixel",1,2]'), undefined);
  assert.is(parseBody("nope"), undefined);
});

test.run();

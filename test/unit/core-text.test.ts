import { test } from "uvu";
import * as assert from "uvu/assert";
import { findText } from "../../firmware/core/text";

test("a needle running off the end of the text is no match", () => {
  assert.is(findText("hello", "lo!"), -1);
  assert.is(findText(",a,b,", ",x,"), -1);
  assert.is(findText("index.html,dim.lut,", ",sys.0,"), -1);
});

test("real matches, from a position on", () => {
  assert.is(findText("hello", "lo"), 3);
  assert.is(findText("abcabc", "bc", 2), 4);
  assert.is(findText("abc", ""), 0);
  assert.is(findText("", "a"), -1);
});

test.run();

// The eight built-in palettes, as their 16 entries (logical 0xRRGGBB).
//
// The colours are those of FastLED's predefined palettes (CloudColors_p, LavaColors_p,
// OceanColors_p, ForestColors_p, RainbowStripeColors_p, PartyColors_p, HeatColors_p,
// RainbowColors_p), used under FastLED's MIT licence:
//   Copyright (c) 2013 FastLED
//   Permission is hereby granted, free of charge, to any person obtaining a copy of this software
//   and associated documentation files (the "Software"), to deal in the Software without
//   restriction, including without limitation the rights to use, copy, modify, merge, publish,
//   distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
//   Software is furnished to do so, subject to the following conditions: The above copyright
//   notice and this permission notice shall be included in all copies or substantial portions of
//   the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
//   PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
//   LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
//   OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
//   DEALINGS IN THE SOFTWARE.
//
// Each table is one string of 16 six-digit hex colours (written four to a group), returned from a
// switch so that only the one asked for becomes a string in memory (a literal is copied into RAM
// when it is evaluated).
import { ENTRIES } from "./compile";

function table(name: string): string {
  switch (name) {
    case "Cloud":
      return "0000FF00008B00008B00008B" + "00008B00008B00008B00008B" + "0000FF00008B87CEEB87CEEB" + "ADD8E6FFFFFFADD8E687CEEB";
    case "Lava":
      return "000000800000000000800000" + "8B00008B00008000008B0000" + "8B00008B0000FF0000FFA500" + "FFFFFFFFA500FF00008B0000";
    case "Ocean":
      return "19197000008B191970000080" + "00008B0000CD2E8B57008080" + "5F9EA00000FF008B8B6495ED" + "7FFFD42E8B5700FFFF87CEFA";
    case "Forest":
      return "006400006400556B2F006400" + "008000228B226B8E23008000" + "2E8B5766CDAA32CD329ACD32" + "90EE907CFC0066CDAA228B22";
    case "Stripe":
      return "FF0000000000AB5500000000" + "ABAB0000000000FF00000000" + "00AB550000000000FF000000" + "5500AB000000AB0055000000";
    case "Party":
      return "5500AB84007CB5004BE5001B" + "E81700B84700AB7700ABAB00" + "AB5500DD2200F2000EC2003E" + "8F00715F00A12F00D00007F9";
    case "Heat":
      return "000000330000660000990000" + "CC0000FF0000FF3300FF6600" + "FF9900FFCC00FFFF00FFFF33" + "FFFF66FFFF99FFFFCCFFFFFF";
    case "Rainbow":
      return "FF0000D52A00AB5500AB7F00" + "ABAB0056D50000FF0000D52A" + "00AB550056AA0000FF2A00D5" + "5500AB7F0081AB0055D5002B";
  }
  return "";
}

/** The 16 entries of the built-in palette `name`, spelled as device/names.ts PALETTES spells it; null for any other name. */
const builtin = (name: string): Uint32Array | null => {
  const hex = table(name);
  if (!hex) return null;
  const out = new Uint32Array(ENTRIES);
  for (let i = 0; i < ENTRIES; i++) out[i] = parseInt(hex.substr(i * 6, 6), 16);
  return out;
};
export default builtin;

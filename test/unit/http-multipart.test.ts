// The streaming multipart/form-data parser: parts, heads, delimiters split anywhere across chunks,
// CRLF inside data, preamble and epilogue, malformed bodies, and what it keeps between chunks.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Multipart, boundaryOf, headerParam } from "../../firmware/http/multipart";
import type { Failure } from "../../firmware/core/failure";

interface Part { field: string; filename: string; type: string; data: string; ended: boolean }

/** A receiver that records everything, with the sizes of the data calls. */
function recorder(refuse?: (event: string, p: Part) => Failure | null) {
  const parts: Part[] = [];
  const calls: number[] = [];
  const r = {
    parts, calls,
    begin(field: string, filename: string, type: string) {
      parts.push({ field, filename, type, data: "", ended: false });
      return refuse ? refuse("begin", parts[parts.length - 1]) : null;
    },
    data(chunk: string) {
      calls.push(chunk.length);
      const p = parts[parts.length - 1];
      p.data += chunk;
      return refuse ? refuse("data", p) : null;
    },
    end() {
      parts[parts.length - 1].ended = true;
      return refuse ? refuse("end", parts[parts.length - 1]) : null;
    },
  };
  return r;
}

const B = "----pixloopBoundary7MA4YWxkTrZu0gW";

function body(parts: { head: string; data: string }[], preamble = "", epilogue = "\r\n"): string {
  let s = preamble;
  for (const p of parts) s += "--" + B + "\r\n" + p.head + "\r\n" + p.data + "\r\n";
  return s + "--" + B + "--" + epilogue;
}

function file(name: string, filename: string, data: string, type = "application/octet-stream") {
  return { head: "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename + "\"\r\nContent-Type: " + type + "\r\n", data };
}

/** Feeds `text` in chunks of the given sizes (the last repeated); returns the receiver and the parser. */
function feed(text: string, sizes: number[], boundary = B) {
  const r = recorder();
  const p = new Multipart(boundary, r);
  let at = 0;
  let k = 0;
  while (at < text.length) {
    const n = sizes[Math.min(k++, sizes.length - 1)];
    const f = p.push(text.substr(at, n));
    assert.is(f, null, "push failed at " + at);
    at += n;
  }
  return { r, p };
}

const bytes = (n: number, seed = 7) => {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode((i * seed + (i >> 8)) & 255);
  return s;
};

test("boundaryOf takes the boundary of multipart/form-data only", () => {
  assert.is(boundaryOf("multipart/form-data; boundary=abc"), "abc");
  assert.is(boundaryOf("Multipart/Form-Data;boundary=\"a b:c\""), "a b:c");
  assert.is(boundaryOf("multipart/form-data; charset=utf-8; boundary=xyz"), "xyz");
  assert.is(boundaryOf("multipart/form-data"), "");
  assert.is(boundaryOf("multipart/mixed; boundary=abc"), "");
  assert.is(boundaryOf("application/json"), "");
  assert.is(boundaryOf(""), "");
  assert.is(boundaryOf("multipart/form-data; boundary=" + "x".repeat(71)), "");
  assert.is(boundaryOf("multipart/form-data; boundary=" + "x".repeat(70)), "x".repeat(70));
});

test("headerParam reads quoted and plain values, skipping valueless parameters", () => {
  const v = "form-data; name=\"file\"; filename=\"my \\\"best\\\" icon.gif\"";
  assert.is(headerParam(v, "name"), "file");
  assert.is(headerParam(v, "filename"), "my \"best\" icon.gif");
  assert.is(headerParam("form-data; flag; name=plain ; filename=a.gif", "name"), "plain");
  assert.is(headerParam("form-data; flag; name=plain ; filename=a.gif", "filename"), "a.gif");
  // A Windows path as browsers of old sent it: backslashes are not escapes.
  assert.is(headerParam("form-data; filename=\"C:\\icons\\a.gif\"", "filename"), "C:\\icons\\a.gif");
  assert.is(headerParam("form-data; name=\"a;b\"; filename=\"x.gif\"", "filename"), "x.gif");
  assert.is(headerParam("form-data", "name"), undefined);
});

test("one file part: head fields, bytes in order, end, complete", () => {
  const data = bytes(3000);
  const { r, p } = feed(body([file("file", "mail.gif", data, "image/gif")]), [536]);
  assert.is(r.parts.length, 1);
  assert.equal({ ...r.parts[0], data: r.parts[0].data.length }, { field: "file", filename: "mail.gif", type: "image/gif", data: 3000, ended: true });
  assert.ok(r.parts[0].data === data, "the bytes came through unchanged");
  assert.ok(p.complete());
  assert.ok(r.calls.every((n) => n > 0), "no empty data calls");
});

test("every split point of the body gives the same parts", () => {
  // Data full of near-delimiters: CRLF, dashes, the boundary without its CRLF, a prefix of it.
  const tricky = "a\r\nb\r\n--\r\n-" + B.slice(0, 10) + "\r\n--" + B.slice(0, 20) + "x\r\r\n\r\n--" + B.slice(0, -1) + "Y" + "end\r";
  const text = body([file("f1", "one.txt", tricky), { head: "Content-Disposition: form-data; name=\"note\"\r\n", data: "hello" },
    file("f2", "two.bin", bytes(300, 13))], "preamble text\r\n", "\r\nepilogue --" + B + "\r\n");
  const whole = feed(text, [text.length]).r.parts;
  assert.is(whole.length, 3);
  assert.is(whole[0].data, tricky);
  assert.equal(whole[1], { field: "note", filename: "", type: "", data: "hello", ended: true });
  assert.is(whole[2].data, bytes(300, 13));
  for (let cut = 1; cut < text.length; cut++) {
    const got = feed(text, [cut, text.length]);
    assert.equal(got.r.parts, whole, "split at " + cut);
    assert.ok(got.p.complete());
  }
  const one = feed(text, [1]);
  assert.equal(one.r.parts, whole, "a byte at a time");
});

test("the first delimiter may open the body or follow a preamble; the epilogue is ignored", () => {
  const plain = feed(body([file("a", "a.gif", "GIF89a")]), [7]);
  assert.is(plain.r.parts[0].data, "GIF89a");
  const pre = feed(body([file("a", "a.gif", "GIF89a")], "ignored\r\nlines\r\n", "\r\n--" + B + "\r\nContent-Disposition: x\r\n\r\nno"), [9]);
  assert.is(pre.r.parts.length, 1);
  assert.ok(pre.p.complete());
});

test("a part without header lines, padding after a delimiter, an empty part", () => {
  const text = "--" + B + "  \t\r\n\r\nraw\r\n--" + B + "\r\nContent-Disposition: form-data; name=\"e\"; filename=\"e.gif\"\r\n\r\n\r\n--" + B + "--";
  const { r, p } = feed(text, [5]);
  assert.equal(r.parts, [
    { field: "", filename: "", type: "", data: "raw", ended: true },
    { field: "e", filename: "e.gif", type: "", data: "", ended: true },
  ]);
  assert.ok(p.complete());
});

test("filename* (RFC 5987) wins over filename", () => {
  const head = "Content-Disposition: form-data; name=\"f\"; filename=\"na_ve.gif\"; filename*=UTF-8''na%C3%AFve.gif\r\n";
  const { r } = feed(body([{ head, data: "x" }]), [100]);
  assert.is(r.parts[0].filename, "na\xc3\xafve.gif");
});

test("a body cut short is not complete, whatever part it stopped in", () => {
  const text = body([file("f", "a.gif", "GIF89a-data")]);
  for (const cut of [5, text.indexOf("\r\n\r\n") + 2, text.indexOf("GIF") + 3, text.length - 3]) {
    const { p } = feed(text.slice(0, cut), [4]);
    assert.not.ok(p.complete(), "cut at " + cut);
  }
  assert.ok(feed(text, [4]).p.complete());
});

test("malformed bodies answer 400 badRequest", () => {
  const cases = [
    "--" + B + "garbage\r\n\r\n",
    "--" + B + "\r\n" + "X-Long: " + "y".repeat(3000),
    "--" + B + "\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--" + B + "zz" + "q".repeat(80),
  ];
  for (const c of cases) {
    const r = recorder();
    const p = new Multipart(B, r);
    let f: Failure | null = null;
    for (let i = 0; i < c.length && !f; i += 536) f = p.push(c.substr(i, 536));
    assert.ok(f, JSON.stringify(c.slice(0, 40)));
    assert.is(f!.status, 400);
    assert.is(f!.code, "badRequest");
  }
});

test("a refusal from the receiver stops the parsing and is handed back", () => {
  const no = { status: 415, code: "unsupportedMediaType", message: "no" };
  for (const at of ["begin", "data", "end"]) {
    const r = recorder((event) => (event === at ? no : null));
    const p = new Multipart(B, r);
    const text = body([file("f", "a.gif", "abc"), file("g", "b.gif", "def")]);
    let f: Failure | null = null;
    for (let i = 0; i < text.length && !f; i += 10) f = p.push(text.substr(i, 10));
    assert.equal(f, no, at);
    assert.is(r.parts.length, 1, at + ": nothing after the refusal");
  }
});

test("what is kept between chunks stays under the delimiter's length, however large the part", () => {
  const r = recorder();
  const p = new Multipart(B, r);
  assert.is(p.push("--" + B + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n\r\n"), null);
  let sent = 0;
  let most = 0;
  for (let i = 0; i < 4000; i++) {
    // Chunks that often end in a CR, or in the start of a delimiter.
    const tail = i % 3 === 0 ? "\r" : i % 3 === 1 ? "\r\n--" + B.slice(0, i % 30) : "";
    const chunk = bytes(536 - tail.length, i + 3) + tail;
    assert.is(p.push(chunk), null);
    sent += chunk.length;
    most = Math.max(most, (p as unknown as { buf: string }).buf.length);
  }
  assert.is(p.push("\r\n--" + B + "--\r\n"), null);
  assert.ok(most < B.length + 4, "kept " + most);
  assert.is(r.parts[0].data.length, sent);
  assert.ok(p.complete());
});

test.run();

// A probe for the memory an upload route holds while it runs, in the real interpreter: a module
// that stands in for the route's own (swapped in the route table of a suite's copy of the firmware
// files), loads the real one as loadModule does and passes every call of the upload contract
// (firmware/http/upload.ts) on to its sink. For the length of the request it also wraps Storage's
// write, read and erase and JSON.parse, so that readings fall inside the sink's work: as a file is
// written or published, a module is loaded, a configuration entry is parsed and applied. Every
// reading is process.memory().usage after a collection. The figures wait in a global until
// GET /test/probe hands them over (and drops them).

/** Route table lines of the reader. */
export const PROBE_ROUTE = "/test/probe||GET::0:test/probe-read\n";

/** What the probe reports, in whole-interpreter usage (stand-ins included). */
export interface ProbeFigures {
  /** As the request reached the route's module (the request pipeline loaded). */
  start: number;
  /** Once the route's module was loaded and its sink made. */
  made: number;
  /** As the first part began, the sink already made. */
  first: number;
  /** The most while parts streamed (from the first begin() to each part's end()). */
  streamPeak: number;
  /** The most over the whole request, from before the real module was loaded to its answer. */
  peak: number;
  /** Where the peak was read ("after writing <file>", "after JSON.parse" ...). */
  where: string;
  /** Where the peak while streaming was read. */
  streamWhere: string;
  /** Readings taken. */
  samples: number;
}

/** The probe module for upload route module `inner` ("backup/restore"), as the build writes modules. */
export function probeModule(inner: string): string {
  return "(()=>{var make=function(req,app){" +
    "var P={first:0,streamPeak:0,peak:0,where:\"\",streamWhere:\"\",samples:0,start:process.memory().usage,made:0};var streaming=false,begun=false;" +
    "var S=require(\"Storage\");var w=S.write,r=S.read,x=S.erase,jp=JSON.parse;" +
    "function note(w){var u=process.memory().usage;P.samples++;if(u>P.peak){P.peak=u;P.where=w||\"\";}if(streaming&&u>P.streamPeak){P.streamPeak=u;P.streamWhere=w||\"\";}return u;}" +
    "S.write=function(a,b,c,d){note(\"before writing \"+a);var o=arguments.length>2?w.call(S,a,b,c,d):w.call(S,a,b);note(\"after writing \"+a);return o;};" +
    "S.read=function(a,b,c){var o=arguments.length>2?r.call(S,a,b,c):arguments.length>1?r.call(S,a,b):r.call(S,a);note(\"after reading \"+a);return o;};" +
    "S.erase=function(a){note(\"before erasing \"+a);var o=x.call(S,a);note(\"after erasing \"+a);return o;};" +
    "JSON.parse=function(s){var o=jp(s);note(\"after JSON.parse\");return o;};" +
    "var done=false;function stop(){if(done)return;done=true;delete S.write;delete S.read;delete S.erase;delete JSON.parse;" +
    "note();global.PIXLOOP_PROBE=P;}" +
    "note();" +
    "var slot=typeof PIXLOOP_SLOT===\"string\"?PIXLOOP_SLOT:\"\";var file=slot+\"m." + inner.split("/").join(".") + "\";" +
    "var code=r.call(S,file);var sink=new Function(r.call(S,file,6,code.length-10))()(req,app);" +
    "P.made=note();if(typeof sink.code===\"string\"){stop();return sink;}" +
    "return{begin:function(f,n,c){if(!begun){begun=true;P.first=note();P.streamPeak=P.first;}streaming=true;var o=sink.begin(f,n,c);note();return o;}," +
    "data:function(c){var o=sink.data(c);note(\"after a piece\");return o;}," +
    "end:function(){note();streaming=false;var o=sink.end();note();return o;}," +
    "finish:function(){var o=sink.finish();stop();return o;}," +
    "abort:function(){sink.abort();stop();}};};return make})()";
}

/** The module of GET /test/probe: the figures of the last probed upload, or null. */
export function probeReader(): string {
  return "(()=>{var h=function(){var p=global.PIXLOOP_PROBE;delete global.PIXLOOP_PROBE;return{status:200,json:p||null};};return h})()";
}

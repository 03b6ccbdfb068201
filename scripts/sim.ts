// npm run sim -- --port <P> --data <DIR> [--board esp32|esp32s3] [--setup]
import * as path from "node:path";
import { startSimulator, ROOT } from "../test/harness/simulator";

function option(name: string): string | undefined {
  const i = process.argv.indexOf("--" + name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = parseInt(option("port") || "8080", 10);
const board = option("board") || "esp32";
const dataDir = path.resolve(option("data") || path.join(ROOT, ".sim"));
const setup = process.argv.includes("--setup");

process.on("SIGTERM", () => process.exit(0));
process.on("SIGINT", () => process.exit(0));

startSimulator({ board, port, dataDir, setup }).then((sim) => {
  console.log("pixloop simulator (" + board + ", " + (setup ? "setup" : "station") + " mode, flash in " +
    dataDir + "): http://127.0.0.1:" + sim.device.port);
}).catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

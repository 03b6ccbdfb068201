// npm run sim -- --port <P> --data <DIR> [--board esp32|esp32s3] [--setup] [--interpreter <espruino>]
import * as fs from "node:fs";
import * as path from "node:path";
import { startSimulator, ROOT } from "../test/harness/simulator";
import { killAll, startEspruino } from "../test/espruino/launch";

function option(name: string): string | undefined {
  const i = process.argv.indexOf("--" + name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = parseInt(option("port") || "8080", 10);
const board = option("board") || "esp32";
const dataDir = path.resolve(option("data") || path.join(ROOT, ".sim"));
const setup = process.argv.includes("--setup");
const interpreter = option("interpreter");

// Ending the simulator ends the interpreter too, and waits for it to be gone.
function end(): void {
  setTimeout(() => process.exit(0), 2000).unref();
  killAll().then(() => process.exit(0));
}
process.on("SIGTERM", end);
process.on("SIGINT", end);

function fail(e: unknown): never {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}

async function main(): Promise<string> {
  const what = board + ", " + (setup ? "setup" : "station") + " mode, flash in " + dataDir;
  if (!interpreter) {
    const sim = await startSimulator({ board, port, dataDir, setup });
    return "pixloop simulator (" + what + "): http://127.0.0.1:" + sim.device.port;
  }
  // The bundle in the real interpreter, booted from the Storage kept in the data folder.
  process.env.ESPRUINO = path.resolve(interpreter);
  if (setup && fs.existsSync(dataDir)) {
    for (const f of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, f), { recursive: true });
  }
  let analogSaid = false;
  const t = await startEspruino(board, {
    port, dataDir, setup,
    log: (line) => {
      // The Linux build has no ADC, and says so at every sensor reading: once is enough.
      if (line.startsWith("ERROR: Analog is not supported")) {
        if (analogSaid) return;
        analogSaid = true;
      }
      console.log(line);
    },
    onEnd: (note) => fail("pixloop: " + note),
  });
  return "pixloop simulator (" + what + ", in Espruino " + (t.version || "?") + " at " + interpreter + "): " + t.url;
}

main().then((line) => console.log(line), fail);

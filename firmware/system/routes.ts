// GET/PUT /api/v1/system and the Wi-Fi scan used by the setup page.
import type { ApiRequest, Reply, Route } from "../http/types";
import { json } from "../http/types";
import type { App } from "../app";
import { failure, isFailure } from "../core/failure";
import type { Failure } from "../core/failure";
import { scan } from "../platform/wifi";
import { nowMs } from "../platform/system";
import type { ScanResult } from "../platform/wifi";
import { publicView } from "./schema";
import { applySystemPut } from "./validate";

function wantsSecrets(req: ApiRequest): boolean {
  return req.query.secrets === "1";
}

function getSystem(req: ApiRequest, app: App): Reply | Failure {
  const secrets = wantsSecrets(req);
  // The setup access point is open: credentials never leave through it.
  if (secrets && app.mode === "setup") return failure(403, "forbidden", "not available during provisioning");
  return json(publicView(app.system.config, secrets));
}

function putSystem(req: ApiRequest, app: App): Reply | Failure {
  const next = applySystemPut(app.system.config, req.body, app.board.chip);
  if (isFailure(next)) return next;
  if (!app.system.save(next)) return failure(507, "insufficientStorage", "storage capacity reached");
  return json(publicView(next, false));
}

// One scan at a time. Its results are handed out once, then dropped.
const SCAN_STALE_MS = 20000;
let scanStarted = 0;
let scanRunning = false;
let scanFound: ScanResult[] | null = null;

function wifiScan(): Reply | Failure {
  if (scanFound) {
    const found = scanFound;
    scanFound = null;
    return json(found);
  }
  // A scan whose callback never came is abandoned and started again.
  if (!scanRunning || nowMs() - scanStarted > SCAN_STALE_MS) {
    scanRunning = true;
    scanStarted = nowMs();
    try {
      scan(function (found) {
        scanRunning = false;
        scanFound = found;
      });
    } catch (e) {
      scanRunning = false;
      return failure(503, "unavailable", "the radio cannot scan right now");
    }
  }
  return json({ scanning: true }, 202);
}

export const systemRoutes: Route[] = [
  {
    path: "/api/v1/system/wifi-scan",
    methods: { GET: { handler: wifiScan, setup: true, maxBody: 0 } },
  },
  {
    path: "/api/v1/system",
    methods: {
      GET: { handler: getSystem, setup: true, guarded: wantsSecrets, maxBody: 0 },
      PUT: { handler: putSystem, setup: true, guarded: true, emptyBody: "invalidJson" },
    },
  },
];

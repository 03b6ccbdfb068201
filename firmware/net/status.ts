// Connection status as reported in device state (`wifi` and `mqtt` objects).

export type LinkState = "disabled" | "connecting" | "connected" | "disconnected" | "accessPoint";

export class ConnectionStatus {
  enabled = false;
  state: LinkState = "disabled";
  host = "";
  endpoint = "";
  attempts = 0;
  /** When the next attempt is due (ms since 1970), 0 when none is scheduled. */
  retryAtMs = 0;
  connects = 0;
  error: string | null = null;
  lastError: string | null = null;

  connecting(host: string): void {
    this.enabled = true;
    this.state = "connecting";
    this.host = host;
    this.attempts++;
    this.retryAtMs = 0;
  }

  connected(endpoint: string): void {
    this.state = "connected";
    this.endpoint = endpoint;
    this.attempts = 0;
    this.connects++;
    this.error = null;
  }

  failed(error: string, retryAtMs: number): void {
    this.state = "disconnected";
    this.error = error;
    this.lastError = error;
    this.retryAtMs = retryAtMs;
  }
}

/** As device state shows it (a plain function: only the device-state module needs it). */
export function statusView(s: ConnectionStatus, nowMs: number): object {
  return {
    enabled: s.enabled, state: s.state, host: s.host, endpoint: s.endpoint,
    attempts: s.attempts, retryInMs: s.retryAtMs > nowMs ? s.retryAtMs - nowMs : 0,
    connects: s.connects, error: s.error, lastError: s.lastError,
  };
}

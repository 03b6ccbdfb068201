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

  toJSON(nowMs: number): object {
    return {
      enabled: this.enabled, state: this.state, host: this.host, endpoint: this.endpoint,
      attempts: this.attempts, retryInMs: this.retryAtMs > nowMs ? this.retryAtMs - nowMs : 0,
      connects: this.connects, error: this.error, lastError: this.lastError,
    };
  }
}

// MQTT 3.1.1 packets as 8-bit strings, one character per byte (Espruino's strings are 8-bit, and
// its sockets read and write them): what the client sends, and a reader that cuts what the broker
// sends into packets however the bytes arrive.

/** Remaining length (bytes after the fixed header) above which an incoming packet is dropped. */
export const MAX_PACKET = 10240;
/** How much of a dropped packet is kept: enough for the topic and packet id of a PUBLISH. */
const HEAD = 256;

/** The packets that are always the same two bytes (a const enum: the bundle holds no variable for them). */
export const enum Fixed {
  PINGREQ = "\xc0\x00",
  DISCONNECT = "\xe0\x00",
}

function u16(n: number): string {
  return String.fromCharCode((n >> 8) & 255, n & 255);
}

/** A length-prefixed string (topic, client id, user, password, will). */
function str(s: string): string {
  return u16(s.length) + s;
}

/** The fixed header: the first byte, then the remaining length, 7 bits a byte. */
function fixed(first: number, len: number): string {
  let out = String.fromCharCode(first);
  do {
    const b = len % 128;
    len = Math.floor(len / 128);
    out += String.fromCharCode(len > 0 ? b | 128 : b);
  } while (len > 0);
  return out;
}

/**
 * CONNECT with a clean session and the last will "offline" on `willTopic`, retained, QoS 1.
 * A user or a password sends the user (empty when only a password is set: the protocol carries
 * no password without a user); neither connects anonymously.
 */
export function connectPacket(clientId: string, user: string, pass: string, keepAliveS: number, willTopic: string): string {
  // Clean session, will, will QoS 1, will retained.
  let flags = 0x2e;
  let tail = str(clientId) + str(willTopic) + "\x00\x07offline";
  if (user || pass) {
    flags |= 0x80;
    tail += str(user);
  }
  if (pass) {
    flags |= 0x40;
    tail += str(pass);
  }
  const body = "\x00\x04MQTT\x04" + String.fromCharCode(flags) + u16(keepAliveS) + tail;
  return fixed(0x10, body.length) + body;
}

/**
 * A PUBLISH without its payload: the payload follows as it is, so that a large one is written to
 * the socket once instead of being copied into one string with its header first. QoS 1 with
 * packet id `id`, QoS 0 when `id` is 0.
 */
export function publishHead(topic: string, payloadLength: number, retain: boolean, id: number): string {
  const head = str(topic) + (id ? u16(id) : "");
  return fixed((id ? 0x32 : 0x30) | (retain ? 1 : 0), head.length + payloadLength) + head;
}

/** SUBSCRIBE to one topic filter at QoS 1. */
export function subscribePacket(id: number, filter: string): string {
  const body = u16(id) + str(filter) + "\x01";
  return fixed(0x82, body.length) + body;
}

export function pubackPacket(id: number): string {
  return "\x40\x02" + u16(id);
}

/** A packet from the broker, as decode() reads it. */
export interface Packet {
  /** 2 CONNACK, 3 PUBLISH, 4 PUBACK, 9 SUBACK, 13 PINGRESP. */
  type: number;
  /** CONNACK: the return code; SUBACK: the first granted QoS (0x80: refused). */
  code: number;
  /** CONNACK: the session-present flag. */
  session: boolean;
  /** PUBLISH (QoS 1 and 2), PUBACK, SUBACK. */
  id: number;
  qos: number;
  retain: boolean;
  dup: boolean;
  topic: string;
  payload: string;
}

/**
 * The packet of first byte `first` and body `body`, or null when it is malformed or of a kind a
 * broker never sends this client (client packets, QoS 2 flows, UNSUBACK). A body cut short
 * (the head of a dropped PUBLISH) decodes as far as its topic and packet id reach.
 */
export function decode(first: number, body: string): Packet | null {
  const type = first >> 4;
  const flags = first & 15;
  const n = body.length;
  let qos = 0;
  let code = 0;
  let id = 0;
  let topic = "";
  let payload = "";
  if (type === 3) {
    qos = (flags >> 1) & 3;
    if (qos === 3 || n < 2) return null;
    const end = 2 + body.charCodeAt(0) * 256 + body.charCodeAt(1);
    if (end + (qos ? 2 : 0) > n) return null;
    topic = body.substr(2, end - 2);
    if (qos) {
      id = body.charCodeAt(end) * 256 + body.charCodeAt(end + 1);
      if (!id) return null;
    }
    payload = body.substr(end + (qos ? 2 : 0));
  } else {
    if (flags) return null;
    if (type === 2) {
      if (n !== 2 || body.charCodeAt(0) > 1) return null;
      code = body.charCodeAt(1);
    } else if (type === 4 || type === 9) {
      if (type === 4 ? n !== 2 : n < 3) return null;
      id = body.charCodeAt(0) * 256 + body.charCodeAt(1);
      if (type === 9) {
        code = body.charCodeAt(2);
        if (code > 2 && code !== 0x80) return null;
      }
    } else if (type !== 13 || n) return null;
  }
  return {
    type, code, session: type === 2 && body.charCodeAt(0) === 1, id, qos,
    retain: type === 3 && (flags & 1) === 1, dup: type === 3 && (flags & 8) === 8, topic, payload,
  };
}

/** Where a PacketReader hands its packets. */
export interface PacketSink {
  /**
   * A packet: `whole` false for one over MAX_PACKET, of which `body` is only the first bytes (up
   * to HEAD). False stops the reading: the connection is being closed.
   */
  take(first: number, body: string, whole: boolean): boolean;
}

/**
 * Cuts a byte stream into packets: a packet may arrive over several reads and a read may hold
 * several. It holds at most one packet's bytes: a packet over MAX_PACKET is counted off as it
 * streams past, only its head kept.
 */
export class PacketReader {
  private buf = "";
  /** Bytes of a dropped packet still to come. */
  private skip = 0;
  /** Its first byte, and its head while it is being collected (null once handed over). */
  private first = 0;
  private head: string | null = null;

  /** Feeds bytes as they arrive. False: the stream is malformed, or the sink stopped it. */
  push(data: string, sink: PacketSink): boolean {
    const s = this.buf ? this.buf + data : data;
    this.buf = "";
    let i = 0;
    for (;;) {
      if (this.skip) {
        let head = this.head;
        if (head !== null) {
          const part = s.substr(i, Math.min(HEAD - head.length, this.skip));
          head += part;
          i += part.length;
          this.skip -= part.length;
          if (head.length < HEAD && this.skip) {
            this.head = head;
            break;
          }
          this.head = null;
          if (!sink.take(this.first, head, false)) return false;
        }
        const n = Math.min(this.skip, s.length - i);
        i += n;
        this.skip -= n;
        if (this.skip) break;
        continue;
      }
      // The remaining length: one to four bytes of seven bits, low first.
      let len = 0;
      let mul = 1;
      let j = i + 1;
      let more = true;
      while (more && j < s.length) {
        const b = s.charCodeAt(j++);
        len += (b & 127) * mul;
        mul *= 128;
        more = b > 127;
        if (more && j - i > 4) return false;
      }
      if (more) break;
      const first = s.charCodeAt(i);
      if (len > MAX_PACKET) {
        this.first = first;
        this.skip = len;
        this.head = "";
        i = j;
        continue;
      }
      if (s.length - j < len) break;
      i = j + len;
      if (!sink.take(first, s.substr(j, len), true)) return false;
    }
    if (i < s.length) this.buf = i ? s.substr(i) : s;
    return true;
  }
}

// @ts-check
// One reconnecting WebSocket, used by the game view and the analyse view
// alike: JSON messages in and out, reconnection with a growing wait after
// a drop, and a word for the page while it is away.

/**
 * The wait before the `tries`-th reconnection, ms: 250 ms, growing to 4 s.
 * @param {number} tries
 * @returns {number}
 */
export function backoff(tries) {
  return Math.min(4000, 250 * 2 ** Math.max(0, tries - 1));
}

/** Tries before the socket gives up and says to reload. */
export const MAX_TRIES = 12;

/**
 * @typedef {object} SocketHandlers
 * @property {(message: any) => void} message a message from the server, parsed
 * @property {() => void} [open] (re)connected
 * @property {(text: string) => void} [trouble] a word on the connection ("" when it is back)
 */

export class Socket {
  /**
   * @param {string} path the socket's path (`/api/games/ID/ws`)
   * @param {SocketHandlers} handlers
   * @param {{ queue?: boolean }} [options] queue: messages sent while away go when it is back
   */
  constructor(path, handlers, options) {
    this.path = path;
    this.handlers = handlers;
    this.queueing = Boolean(options && options.queue);
    /** @type {string[]} */
    this.queue = [];
    this.tries = 0;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + this.path);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.tries = 0;
      if (this.handlers.trouble) this.handlers.trouble("");
      for (const text of this.queue.splice(0)) ws.send(text);
      if (this.handlers.open) this.handlers.open();
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return;
      let m;
      try {
        m = JSON.parse(String(ev.data));
      } catch (e) {
        return;
      }
      this.handlers.message(m);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.closed) return;
      this.tries++;
      if (this.tries > MAX_TRIES) {
        if (this.handlers.trouble) this.handlers.trouble("the server cannot be reached; reload the page to try again");
        return;
      }
      if (this.handlers.trouble) this.handlers.trouble("connection lost; reconnecting…");
      this.timer = setTimeout(() => {
        if (!this.closed && this.ws === ws) this.connect();
      }, backoff(this.tries));
    });
  }

  /** Whether the socket is open now. */
  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends a message: at once when open, else queued (a queueing socket)
   * or refused.
   * @param {object} message
   * @returns {boolean} whether it was sent or queued
   */
  send(message) {
    const text = JSON.stringify(message);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(text);
      return true;
    }
    if (this.queueing) {
      this.queue.push(text);
      return true;
    }
    return false;
  }

  /** Closes it for good. */
  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

// The HTTP server socket.

export function listen(port: number, onRequest: (req: EspRequest, res: EspResponse) => void): EspServer {
  return require("http").createServer(onRequest).listen(port);
}

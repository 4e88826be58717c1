/**
 * Newline-delimited JSON from a stream (an MCP server's stdout): `onMessage(message, line)`
 * for each complete line, in order.
 *
 * @example
 * onJsonLines(child.stdout, (msg) => { if (msg.id === 1) … });
 */
export function onJsonLines(stream, onMessage) {
  let buffer = '';
  stream.on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onMessage(JSON.parse(line), line);
    }
  });
}

import { spawn } from 'node:child_process';
import { UsageError } from '../errors.js';
import { bool, int, str, type CommandDef } from '../term/args.js';
import { open, printJson } from './shared.js';

const command: CommandDef = {
  name: 'serve',
  summary: 'Browse and edit memories in a local web viewer (and a JSON API)',
  usage: ['serve [--port <n>] [--host <addr>] [--open]'],
  description:
    'Runs a local HTTP server while the command runs (Ctrl-C stops it): a web page to search and read\n' +
    'memories, and a JSON API under /api/ over the same library calls as the CLI (status, doctor, list,\n' +
    'search, get, remember, update, archive, edges, traverse, the briefing with its explain table, the\n' +
    'lifecycle dry run, the review queue, branch diffs). Edits pass the same validation, redaction and\n' +
    'write lock as `cortex edit`; open pages follow changes made on disk.\n' +
    '\n' +
    'It binds to 127.0.0.1 by default. Every API call needs the random token of this run, which the\n' +
    'printed URL carries (after #, so it is never sent in a Referer or kept in server logs); requests\n' +
    'naming another Host (DNS rebinding) or coming from another Origin are refused, and request bodies\n' +
    'are limited to 1 MiB. --host binds elsewhere, with a warning: anyone who can reach that address\n' +
    'and learns the token can read and change the memories.\n' +
    '\n' +
    'Every view has its own link (#/memory/<id>, #/graph, #/diff/main...feature, #/search?q=…); put one\n' +
    'before the token to open it: http://127.0.0.1:<port>/#/memory/<id>?token=…. See docs/viewer.md.',
  options: {
    port: { type: 'string', value: '<n>', description: 'Port to listen on (default: a free one).' },
    host: { type: 'string', value: '<addr>', description: 'Address to bind (default 127.0.0.1); another one prints a warning.' },
    open: { type: 'boolean', description: 'Open the viewer in the default browser.' },
  },
  examples: ['cortex serve', 'cortex serve --port 4141 --open', 'cortex serve --json   # one line with the URL, for scripts'],
  exitCodes: ['130 interrupted (Ctrl-C is the normal way to stop it; the exit code is then 0)'],
  async run(inv, io) {
    const port = int(inv, 'port', [0, 65535]);
    const host = str(inv, 'host') ?? '127.0.0.1';
    if (host.trim() === '') throw new UsageError('--host needs an address, e.g. 127.0.0.1.');
    // Opened first: a directory without .cortex/ fails here, before anything listens.
    const cortex = await open(inv, io);
    const { startServer } = await import('../serve/server.js');
    const { LOOPBACK_HOSTS } = await import('../serve/security.js');
    const stopped = io.trapInterrupt?.();
    const server = await startServer({ cortex, host, ...(port !== undefined ? { port } : {}) });
    if (!LOOPBACK_HOSTS.includes(host)) {
      io.err(
        `warning: listening on ${host}, not only on this machine: anyone who can reach ${server.origin} and learns the token\n` +
          'can read and change these memories. The connection is plain HTTP (no TLS).\n',
      );
    }
    if (inv.json) printJson(io, { url: server.url, origin: server.origin, host: server.host, port: server.port, root: cortex.context.root });
    else {
      io.out(`${server.url}\n`);
      io.err(`Cortex viewer for ${cortex.context.root}: open the URL above (it carries this run's token). Ctrl-C to stop.\n`);
    }
    if (bool(inv, 'open')) openBrowser(server.url, io.err);
    await new Promise<void>((resolve) => {
      if (stopped) stopped.addEventListener('abort', () => resolve(), { once: true });
      process.once('SIGTERM', () => resolve());
    });
    await server.close();
    io.err('Stopped.\n');
    return 0;
  },
};

/** The platform's "open this URL" command; a failure is one line on stderr, never an error. */
function openBrowser(url: string, err: (text: string) => void): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => err(`Could not open a browser (${cmd as string}); open the URL yourself.\n`));
    child.unref();
  } catch {
    err(`Could not open a browser (${cmd as string}); open the URL yourself.\n`);
  }
}

export default command;

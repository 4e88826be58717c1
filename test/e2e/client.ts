/**
 * The real clients the end-to-end tests run Cortex in: `@anthropic-ai/claude-code` (the
 * `claude` binary) and `claude-code-lint`, at the versions pinned by test/e2e/client/. They
 * are not dev dependencies (the Claude Code binary is about 400 MB and only these tests need
 * it): the first run installs them with `npm ci` into node_modules/.cache/, keyed by the
 * lock file's hash, and later runs reuse that. No registry, no client: the tests skip and say
 * why.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/repo.js';

export interface Client {
  /** The `claude` executable. */
  claude: string;
  /** The `claudelint` executable of claude-code-lint. */
  claudelint: string;
  /** `claude --version`. */
  version: string;
}

export type ClientResult = { ok: true; client: Client } | { ok: false; reason: string };

const SOURCE = join(REPO_ROOT, 'test', 'e2e', 'client');
const INSTALL_TIMEOUT_MS = 240_000;

function tail(text: string, lines = 8): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

function probe(dir: string): Client | undefined {
  const claude = join(dir, 'node_modules', '.bin', 'claude');
  const claudelint = join(dir, 'node_modules', '.bin', 'claudelint');
  if (!existsSync(claude) || !existsSync(claudelint)) return undefined;
  const r = spawnSync(claude, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, DISABLE_AUTOUPDATER: '1' } });
  if (r.status !== 0) return undefined;
  return { claude, claudelint, version: r.stdout.trim() };
}

/**
 * Installs (once) and returns the clients, or why they cannot be had. Set
 * `CORTEX_E2E_CLIENT_DIR` to use an existing install instead (a directory with
 * node_modules/.bin/claude and claudelint).
 *
 * @example
 * const got = installClient(); if (!got.ok) ctx.skip(got.reason);
 */
export function installClient(env: NodeJS.ProcessEnv = process.env): ClientResult {
  const given = env.CORTEX_E2E_CLIENT_DIR;
  if (given) {
    const client = probe(given);
    return client ? { ok: true, client } : { ok: false, reason: `CORTEX_E2E_CLIENT_DIR=${given} has no working node_modules/.bin/claude and claudelint` };
  }
  const lock = readFileSync(join(SOURCE, 'package-lock.json'));
  const key = createHash('sha256').update(readFileSync(join(SOURCE, 'package.json'))).update(lock).digest('hex').slice(0, 12);
  const dir = join(REPO_ROOT, 'node_modules', '.cache', 'cortex-e2e', `client-${key}`);
  const ready = probe(dir);
  if (ready) return { ok: true, client: ready };

  // Installed beside the final place and renamed into it, so a run that is interrupted
  // leaves nothing that looks installed.
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(SOURCE, f), join(staging, f));
  const r = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: staging,
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
    env: { ...env, npm_config_update_notifier: 'false' },
  });
  if (r.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    const why = r.error ? r.error.message : tail(`${r.stdout}\n${r.stderr}`);
    return { ok: false, reason: `could not install @anthropic-ai/claude-code with npm ci (${why.replace(/\s+/g, ' ').slice(0, 400)})` };
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  const client = probe(dir);
  return client ? { ok: true, client } : { ok: false, reason: `@anthropic-ai/claude-code installed in ${dir}, but \`claude --version\` does not run there` };
}

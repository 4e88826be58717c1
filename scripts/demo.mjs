#!/usr/bin/env node
// `npm start`: builds Cortex if needed, creates a demo git repository in a temporary
// directory, and shows the main job: remembering, recalling, and the briefing.
// `npm start -- --serve` then opens the web viewer on it (`cortex serve --open`; Ctrl-C stops it).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.cjs');
if (!existsSync(cli)) {
  console.error('Building cortex (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

const serve = process.argv.includes('--serve');
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dir = positional[0] ? resolve(positional[0]) : mkdtempSync(join(tmpdir(), 'cortex-demo-'));
// A global tier of its own, so the demo never touches yours; removed at the end.
const home = mkdtempSync(join(tmpdir(), 'cortex-demo-home-'));
process.on('exit', () => rmSync(home, { recursive: true, force: true }));
const env = {
  ...process.env,
  CORTEX_HOME: join(home, 'global'),
  GIT_AUTHOR_NAME: 'Demo',
  GIT_AUTHOR_EMAIL: 'demo@example.com',
  GIT_COMMITTER_NAME: 'Demo',
  GIT_COMMITTER_EMAIL: 'demo@example.com',
};

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: dir, env, encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
  }
  return r.stdout;
}

function cortex(...args) {
  console.log(`\n$ cortex ${args.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, env, encoding: 'utf8' });
  process.stdout.write(r.stdout);
  if (r.stderr.trim()) process.stdout.write(`${r.stderr.trimEnd().replace(/^/gm, '  ')}\n`);
  if (r.status !== 0 && r.status !== 1) throw new Error(`cortex ${args[0]} exited ${r.status}`);
  return r.stdout;
}

console.log(`Demo repository: ${dir}`);
sh('git', ['init', '-q', '-b', 'main']);
writeFileSync(join(dir, 'README.md'), '# Demo shop\nA small web shop used to show Cortex.\n');
writeFileSync(join(dir, 'db.ts'), 'export const db = "sqlite";\n');
sh('git', ['add', '.']);
sh('git', ['commit', '-q', '-m', 'Initial commit']);

cortex('init');
cortex('remember', 'Chose SQLite over Postgres because zero-config matters on every laptop', '--type', 'decision', '--tags', 'storage,sqlite', '--priority', '8');
cortex('remember', 'Rejected an ORM: the query builder is enough and keeps SQL reviewable', '--type', 'rejected', '--tags', 'storage');
cortex('remember', 'Timestamps are stored in UTC and converted only in the UI', '--type', 'gotcha', '--tags', 'time');
cortex('remember', 'HTTP handlers live in src/routes/, one file per resource', '--type', 'architecture', '--tags', 'api');
cortex('remember', 'Deploy key for staging is AKIA' + 'QWERTYUIOPASDFGH (rotate monthly)', '--type', 'context', '--tags', 'ops');
cortex('recall', 'which database did we pick');
cortex('recall', 'where do the api routes go');
cortex('list');
cortex('status');
for (const extra of [['surface'], ['lint']]) {
  const r = spawnSync(process.execPath, [cli, extra[0], '--help'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status === 0) cortex(...extra);
}
console.log(`\nThe memories are plain files: ls ${join(dir, '.cortex/memories')}`);
console.log(sh('ls', ['.cortex/memories']).trim().replace(/^/gm, '  '));
console.log(`\nTry it yourself:  cd ${dir} && node ${cli} recall "time zones"`);

if (serve) {
  // A few links and a commit, so the graph, the history and the branch diff have something to show.
  const ids = sh('ls', ['.cortex/memories']).trim().split('\n').map((f) => f.replace(/\.md$/, ''));
  const find = (prefix) => ids.find((id) => id.startsWith(prefix));
  const link = (a, rel, b) => a && b && spawnSync(process.execPath, [cli, 'link', a, rel, b], { cwd: dir, env });
  link(find('rejected-an-orm'), 'relates_to', find('chose-sqlite'));
  link(find('timestamps-are-stored'), 'refines', find('http-handlers'));
  sh('git', ['add', '-A']);
  sh('git', ['commit', '-q', '-m', 'Record the first decisions']);
  sh('git', ['checkout', '-q', '-b', 'feature/sessions']);
  cortex('remember', 'Sessions expire after 30 minutes of inactivity', '--type', 'decision', '--tags', 'auth');
  sh('git', ['add', '-A']);
  sh('git', ['commit', '-q', '-m', 'Session expiry']);
  console.log('\n$ cortex serve --open   (Ctrl-C stops it; Branch diff: main...feature/sessions)');
  const r = spawnSync(process.execPath, [cli, 'serve', '--open'], { cwd: dir, env, stdio: 'inherit' });
  process.exitCode = r.status ?? 0;
}

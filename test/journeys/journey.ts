/**
 * What the journey tests share: a repository set up as the README says (`cortex init` of the
 * built CLI, real git, its hooks installed), and a Claude Code session simulated the way
 * Claude Code runs the hooks: a transcript written by us, piped to `cortex hook stop` and
 * `cortex hook session-end` as JSON on stdin.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempRepo, type RunResult, type TempRepo } from '../helpers/repo.js';

/** A repository with one commit and `cortex init` run in it (git hooks and merge driver installed). */
export function journeyRepo(files: Record<string, string> = {}): TempRepo {
  const repo = tempRepo({ 'README.md': '# demo\n', 'src/app.ts': 'export const app = 1;\n', ...files });
  ok(repo.git(['add', '.']));
  ok(repo.git(['commit', '-q', '-m', 'init']));
  ok(repo.cortex(['init']));
  ok(repo.git(['add', '.']));
  ok(repo.git(['commit', '-q', '-m', 'cortex init']));
  return repo;
}

/** Fails the test with the command's output when it did not exit 0; returns it otherwise. */
export function ok(r: RunResult): RunResult {
  if (r.code !== 0) expect.fail(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** `git status --porcelain` lines, sorted, untracked files listed one by one. */
export function status(repo: TempRepo): string[] {
  return ok(repo.git(['status', '--porcelain', '--untracked-files=all'])).stdout.split('\n').filter(Boolean).sort();
}

/** The paths a commit changed, sorted. */
export function committed(repo: TempRepo, rev = 'HEAD'): string[] {
  return ok(repo.git(['show', '--name-only', '--format=', rev])).stdout.split('\n').filter(Boolean).sort();
}

let turn = 0;

/**
 * A Claude Code session in `repo` that ends with the assistant stating `statements` as
 * `[MEMORY: type] …` tags: the Stop hook, then SessionEnd, whose detached worker is waited
 * for (it regenerates the projections and the briefing cache last).
 */
export async function claudeSession(repo: TempRepo, sessionId: string, statements: { type: string; text: string }[], cwd = repo.dir): Promise<void> {
  const transcript = join(repo.home, `${sessionId}.jsonl`);
  const line = (o: Record<string, unknown>) =>
    `${JSON.stringify({ sessionId, cwd, gitBranch: 'main', isSidechain: false, timestamp: '2026-11-21T10:00:00.000Z', ...o })}\n`;
  const text = `Done.\n\n${statements.map((s) => `[MEMORY: ${s.type}] ${s.text}`).join('\n')}`;
  turn += 1;
  writeFileSync(
    transcript,
    line({ type: 'user', uuid: `u${turn}`, message: { role: 'user', content: 'Please settle this.' } }) +
      line({ type: 'assistant', uuid: `a${turn}`, message: { id: `m${turn}`, role: 'assistant', model: 'claude', content: [{ type: 'text', text }] } }),
  );
  const input = (event: string) => JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd, hook_event_name: event, stop_hook_active: false, reason: 'other' });
  const memoryDir = join(cwd, '.memory');
  const cacheDir = join(memoryDir, 'surface-cache');
  rmSync(cacheDir, { recursive: true, force: true });
  expect(repo.cortex(['hook', 'stop'], { input: input('Stop'), cwd })).toMatchObject({ code: 0, stdout: '' });
  expect(repo.cortex(['hook', 'session-end'], { input: input('SessionEnd'), cwd })).toMatchObject({ code: 0, stdout: '' });
  const deadline = Date.now() + 30_000;
  const done = () => existsSync(cacheDir) && readdirSync(cacheDir).length > 0 && (!existsSync(join(memoryDir, 'hooks')) || readdirSync(join(memoryDir, 'hooks')).length === 0);
  while (Date.now() < deadline && !done()) await new Promise((res) => setTimeout(res, 100));
  expect(done()).toBe(true);
  // The worker writes the briefing cache last; give it the moment to let go of its lock.
  await new Promise((res) => setTimeout(res, 300));
}

/** What Claude Code receives at the start of a session in `cwd`. */
export function briefing(repo: TempRepo, sessionId: string, cwd = repo.dir): string {
  const r = ok(repo.cortex(['hook', 'session-start'], { input: JSON.stringify({ session_id: sessionId, source: 'startup', cwd, hook_event_name: 'SessionStart' }), cwd }));
  if (r.stdout === '') return '';
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

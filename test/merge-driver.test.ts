/**
 * The merge driver's file adapter, in-process on real files (no git needed for these
 * paths): dispatch by path, the result written to %A, and nothing ever dropped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ATTRIBUTE_LINES, ATTRIBUTES_HEADER } from '../src/setup/git-setup.js';
import { runMergeDriver } from '../src/api/merge-driver.js';
import { renderProjections as renderWith, type RenderProjectionsOptions } from '../src/core/projection.js';
import type { Memory } from '../src/core/memory.js';
import { REPO_ROOT } from './helpers/repo.js';
import { testMemory } from './helpers/arbitrary.js';
import { PROJECTION_TEMPLATES } from './helpers/templates.js';

const renderProjections = (memories: readonly Memory[], options: Partial<RenderProjectionsOptions> = {}) =>
  renderWith(memories, { templates: PROJECTION_TEMPLATES, ...options });

function files(texts: { base: string; ours: string; theirs: string }) {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-driver-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const paths = { base: join(dir, 'O'), ours: join(dir, 'A'), theirs: join(dir, 'B') };
  for (const k of ['base', 'ours', 'theirs'] as const) writeFileSync(paths[k], texts[k]);
  return { dir, paths };
}

const edge = (strength: number, status: string, body = '') =>
  `---\nsource: a-aaaaaa\ntarget: b-bbbbbb\nrelation: refines\nstrength: ${strength}\nstatus: ${status}\nbidirectional: false\norigin: jaccard\ncreated: 2026-11-21T10:00:00Z\n---\n${body}`;

const memory = testMemory;

describe('runMergeDriver', () => {
  it('merges an edge file field by field into %A', () => {
    const { dir, paths } = files({ base: edge(0.5, 'suggested'), ours: edge(0.8, 'suggested'), theirs: edge(0.5, 'active') });
    const out = runMergeDriver({ ...paths, path: '.cortex/edges/a-aaaaaa--refines--b-bbbbbb.md', cwd: dir, env: {} });
    expect(out).toMatchObject({ clean: true, kind: 'edge' });
    expect(readFileSync(paths.ours, 'utf8')).toBe(edge(0.8, 'active'));
  });

  it('merges a projection entry by entry when the commits cannot be named (not a repository)', () => {
    const base = renderProjections([memory('a-aaaaaa')])['decisions.md'];
    const ours = renderProjections([memory('a-aaaaaa'), memory('b-bbbbbb')])['decisions.md'];
    const theirs = renderProjections([memory('a-aaaaaa'), memory('c-cccccc')])['decisions.md'];
    const { dir, paths } = files({ base, ours, theirs });
    const out = runMergeDriver({ ...paths, path: '.cortex/decisions.md', cwd: dir, env: {} });
    expect(out).toMatchObject({ clean: true, kind: 'projection', method: 'entries' });
    expect(readFileSync(paths.ours, 'utf8')).toBe(renderProjections([memory('a-aaaaaa'), memory('b-bbbbbb'), memory('c-cccccc')])['decisions.md']);
  });

  it('treats the empty ancestor git passes for an add/add as no ancestor', () => {
    const text = (p: number) => `---\nid: a-aaaaaa\ntype: decision\nsummary: A\npriority: ${p}\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n---\nBody.\n`;
    const { dir, paths } = files({ base: '', ours: text(3), theirs: text(7) });
    const out = runMergeDriver({ ...paths, path: '.cortex/memories/a-aaaaaa.md', cwd: dir, env: {} });
    expect(out.clean).toBe(true);
    expect(readFileSync(paths.ours, 'utf8')).toContain('priority: 7');
  });

  it('merges other files line by line and labels the markers with the branch git names', () => {
    const { dir, paths } = files({ base: 'a\nb\n', ours: 'a\nours\n', theirs: 'a\ntheirs\n' });
    const out = runMergeDriver({ ...paths, path: '.cortex/config.yaml', cwd: dir, env: { [`GITHEAD_${'a'.repeat(40)}`]: 'feature' } });
    expect(out).toMatchObject({ clean: false, kind: 'text' });
    expect(readFileSync(paths.ours, 'utf8')).toBe('a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n');
  });
});

describe("the project's own .gitattributes", () => {
  it('declares the cortex merge driver exactly as cortex init writes it (the repository dogfoods itself)', () => {
    const lines = readFileSync(join(REPO_ROOT, '.gitattributes'), 'utf8').split('\n');
    for (const line of [ATTRIBUTES_HEADER, ...ATTRIBUTE_LINES]) expect(lines).toContain(line);
  });
});

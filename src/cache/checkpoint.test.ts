import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FAKES } from '../../test/helpers/secrets-corpus.js';
import { CHECKPOINT_VERSION, checkpointDir, checkpointName, readCheckpoint, writeCheckpoint, type TranscriptCheckpoint } from './checkpoint.js';
import { redactionGateStamp } from './gate-stamp.js';

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-checkpoint-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, '.memory');
}

const base = (state: unknown, gate?: string): TranscriptCheckpoint => ({
  version: CHECKPOINT_VERSION,
  session: 's1',
  transcript: '/tmp/t.jsonl',
  offset: 10,
  ino: 1,
  dev: 1,
  size: 10,
  state,
  updated: '2026-11-24T00:00:00Z',
  gate,
});

describe('transcript checkpoints', () => {
  const [, wrap, secret] = FAKES[0]!;
  const raw = (dir: string) => readFileSync(join(checkpointDir(dir), checkpointName('s1')), 'utf8');

  it('redacts every string of the state and stamps the gate that wrote it', () => {
    const dir = cacheDir();
    writeCheckpoint(dir, base({ recentCommands: [wrap(secret)], todos: { [wrap(secret)]: 'open' } }));
    expect(raw(dir)).not.toContain(secret);
    expect(readCheckpoint(dir, 's1')?.gate).toBe(redactionGateStamp());
  });

  it('redacts the keys and the hook fields too: nothing reaches the disk around the gate', () => {
    const dir = cacheDir();
    writeCheckpoint(dir, { ...base({}), transcript: `/tmp/${wrap(secret)}/t.jsonl`, keys: { [`doc:${wrap(secret)}`]: 'm1' }, written: { t: wrap(secret) } });
    expect(raw(dir)).not.toContain(secret);
  });

  it('scans again what a checkpoint another gate wrote holds, and always what a turn added', () => {
    const dir = cacheDir();
    // As an older Cortex (whose rules missed this secret) left it.
    const older = base({ recentCommands: [wrap(secret)] }, 'an-older-gate');
    writeCheckpoint(dir, base({ recentCommands: [wrap(secret), 'npm test'] }), older);
    expect(raw(dir)).not.toContain(secret);
    // Written by this gate: what the next turn adds is scanned all the same.
    const previous = readCheckpoint(dir, 's1')!;
    const state = previous.state as { recentCommands: string[] };
    writeCheckpoint(dir, { ...previous, state: { recentCommands: [...state.recentCommands, `echo ${wrap(secret)}`] } }, previous);
    expect(raw(dir)).not.toContain(secret);
    expect((readCheckpoint(dir, 's1')!.state as { recentCommands: string[] }).recentCommands).toHaveLength(3);
  });
});

/**
 * Runs parsing and extraction over the real Claude Code transcripts in ../shared/transcripts
 * when they are present (they are never copied into this repository), and skips otherwise.
 * Prints per-layer counts and the keyword candidates so their precision can be judged.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractMemories, MAX_CANDIDATE_SUMMARY, type Candidate, type ExtractResult } from './extract.js';
import { isMemoryType } from './memory.js';
import { parseTranscriptChunk, type TranscriptEvent } from './transcript.js';

const DIR = fileURLToPath(new URL('../../../shared/transcripts/', import.meta.url));
const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.jsonl')).sort() : [];
const NOW = '2026-11-21T10:00:00Z';
const PRINT_KEYWORDS = /^(?:04|07)-/;

const sessionOf = (events: TranscriptEvent[]): string => events.findLast((e) => e.sessionId !== undefined)?.sessionId ?? 'unknown';
const all = (r: ExtractResult): Candidate[] => [...r.memories, ...r.review];

function extractFile(bytes: Buffer): { events: TranscriptEvent[]; result: ExtractResult } {
  const { events } = parseTranscriptChunk(bytes);
  return { events, result: extractMemories(events, { sessionId: sessionOf(events), now: NOW, final: true }) };
}

describe.skipIf(files.length === 0)('extractMemories on real transcripts', () => {
  it.each(files)('%s parses whole, and extraction yields valid, deterministic candidates', (name) => {
    const bytes = readFileSync(`${DIR}${name}`);
    const parsed = parseTranscriptChunk(bytes);
    expect(parsed.consumedBytes).toBe(bytes.length);
    expect(parsed.diagnostics).toEqual([]);
    const { result } = extractFile(bytes);
    for (const c of all(result)) {
      expect(isMemoryType(c.type)).toBe(true);
      expect(c.summary.trim()).not.toBe('');
      expect(c.summary).not.toMatch(/[\r\n]/);
      expect(c.summary.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
      expect(c.confidence).toBeGreaterThanOrEqual(0);
      expect(c.confidence).toBeLessThanOrEqual(1);
    }
    expect(extractFile(bytes).result).toEqual(result);

    const count = (layer: Candidate['layer'], list: Candidate[]) => list.filter((c) => c.layer === layer).length;
    const counts = (['structural', 'keyword', 'self-report'] as const).map((l) => `${l} ${count(l, result.memories)}+${count(l, result.review)}`);
    const lines = [`[${name}] memories+review: ${counts.join(', ')}`];
    for (const c of all(result).filter((x) => x.layer === 'structural')) lines.push(`  ${c.type} ${c.confidence} ${c.summary}`);
    if (PRINT_KEYWORDS.test(name)) {
      for (const c of all(result).filter((x) => x.layer === 'keyword')) {
        lines.push(`  ${result.memories.includes(c) ? 'MEMORY' : 'review'} ${c.type} ${c.confidence.toFixed(2)} ${c.summary}`);
      }
    }
    console.log(lines.join('\n'));
  });

  it.each(files)('%s gives the same candidates when read incrementally from byte checkpoints', (name) => {
    const bytes = readFileSync(`${DIR}${name}`);
    const whole = extractFile(bytes);
    const sessionId = sessionOf(whole.events);
    let checkpoint = 0;
    let state;
    let last: ExtractResult | undefined;
    const prose = new Map<string, number>();
    // Uneven chunk sizes so that cuts land inside lines and inside multi-byte characters;
    // a chunk holding no complete line is retried larger, as the shell does on its next run.
    let size = 0;
    for (let i = 0; checkpoint < bytes.length && i < 10_000; i++) {
      size = Math.max(size, 20_000 + ((i * 7919) % 50_000));
      const end = Math.min(bytes.length, checkpoint + size);
      const chunk = parseTranscriptChunk(bytes.subarray(checkpoint, end), { startOffset: checkpoint });
      if (chunk.consumedBytes === 0) {
        size *= 2;
        continue;
      }
      size = 0;
      checkpoint += chunk.consumedBytes;
      last = extractMemories(chunk.events, { sessionId, now: NOW, state, final: checkpoint === bytes.length });
      state = last.state;
      // A later candidate with the same key replaces the earlier one, as on disk.
      for (const c of all(last)) if (c.layer !== 'structural') prose.set(c.key ?? c.summary, c.confidence);
    }
    expect(checkpoint).toBe(bytes.length);
    expect(all(last!).filter((c) => c.layer === 'structural')).toEqual(all(whole.result).filter((c) => c.layer === 'structural'));
    expect(prose).toEqual(new Map(all(whole.result).filter((c) => c.layer !== 'structural').map((c) => [c.key ?? c.summary, c.confidence])));
  });

  // Speed is measured whole-process by the benchmarks (bench/hooks.mjs: Stop on a 5 MB
  // transcript, incremental), not here.
});

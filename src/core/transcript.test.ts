import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscriptChunk, type TranscriptEvent } from './transcript.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/transcripts/', import.meta.url));
const fixtureNames = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const fixture = (name: string): Buffer => readFileSync(`${FIXTURES}${name}/transcript.jsonl`);

const envelope = { isSidechain: false, userType: 'external', cwd: '/repo', sessionId: 's1', version: '2.0.42', gitBranch: 'main' };
let n = 0;
const line = (obj: Record<string, unknown>): string =>
  `${JSON.stringify({ parentUuid: null, ...envelope, uuid: `u${++n}`, timestamp: '2026-01-01T00:00:00.000Z', ...obj })}\n`;
const user = (content: unknown, extra: Record<string, unknown> = {}): string => line({ type: 'user', message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: unknown[], extra: Record<string, unknown> = {}): string =>
  line({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: blocks }, ...extra });
const kinds = (events: TranscriptEvent[]): string[] => events.map((e) => (e.kind === 'meta' ? `meta:${e.subtype}` : e.kind));
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Naive oracle for replay removal: the first occurrence of each block of an API message. */
function withoutReplays(events: TranscriptEvent[]): TranscriptEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    if ((e.kind !== 'tool-use' && e.kind !== 'text' && e.kind !== 'thinking') || e.messageId === undefined) return true;
    const key = e.kind === 'tool-use' ? `${e.messageId}/${e.id}` : `${e.messageId}/${e.kind}/${e.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe('parseTranscriptChunk', () => {
  it('reads a string prompt and a content-block prompt as prompts', () => {
    const { events } = parseTranscriptChunk(user('fix the build') + user([{ type: 'text', text: 'and the tests' }]));
    expect(events.map((e) => (e.kind === 'prompt' ? e.text : e.kind))).toEqual(['fix the build', 'and the tests']);
  });

  it('copies the envelope onto every event and drops an empty gitBranch', () => {
    const text = user('hi', { sessionId: 'abc', cwd: '/work', gitBranch: 'feat/x', timestamp: '2026-02-03T04:05:06.000Z', uuid: 'u-env', parentUuid: 'p' }) + user('yo', { gitBranch: '' });
    const [first, second] = parseTranscriptChunk(text).events;
    expect(first).toMatchObject({ sessionId: 'abc', cwd: '/work', gitBranch: 'feat/x', timestamp: '2026-02-03T04:05:06.000Z', uuid: 'u-env', parentUuid: 'p', isSidechain: false });
    expect(second?.gitBranch).toBeUndefined();
  });

  it('consumes only complete lines and leaves a torn last line for the next call', () => {
    const complete = user('é 🎉 done');
    const torn = user('not yet written').slice(0, 25);
    const result = parseTranscriptChunk(complete + torn, { startOffset: 100 });
    expect(result.events).toHaveLength(1);
    expect(result.consumedBytes).toBe(bytes(complete));
    expect(result.diagnostics).toEqual([]);
  });

  it('counts bytes, not UTF-16 units, for multi-byte text given as a string or as bytes', () => {
    const first = user('Größe 🎉 «café»');
    const text = first + user('second');
    const fromString = parseTranscriptChunk(text, { startOffset: 7 });
    const fromBytes = parseTranscriptChunk(Buffer.from(text, 'utf8'), { startOffset: 7 });
    expect(fromString.consumedBytes).toBe(bytes(text));
    expect(fromBytes.consumedBytes).toBe(bytes(text));
    expect(fromString.events.map((e) => e.offset)).toEqual([7, 7 + bytes(first)]);
    expect(fromBytes.events).toEqual(fromString.events);
  });

  it('resumes from the checkpoint when a chunk ends inside a multi-byte character', () => {
    const first = user('alpha');
    const second = user('Überschrift');
    const all = Buffer.from(first + second, 'utf8');
    const cut = bytes(first) + Buffer.from(second, 'utf8').indexOf(Buffer.from('Ü', 'utf8')) + 1;
    const a = parseTranscriptChunk(all.subarray(0, cut), { startOffset: 0 });
    expect(a.consumedBytes).toBe(bytes(first));
    const b = parseTranscriptChunk(all.subarray(a.consumedBytes), { startOffset: a.consumedBytes });
    expect(b.events).toMatchObject([{ kind: 'prompt', text: 'Überschrift', offset: bytes(first) }]);
    expect(b.consumedBytes).toBe(all.length - bytes(first));
  });

  it('skips a malformed complete line with a diagnostic at its offset and keeps reading', () => {
    const good = user('one');
    const broken = ['{"type":"user","message":\n', '[1,2]\n', '{"uuid":"x"}\n'];
    const text = `${good}${broken.join('')}\n${user('two')}`;
    const { events, diagnostics } = parseTranscriptChunk(text, { startOffset: 10, file: 'a.jsonl' });
    expect(kinds(events)).toEqual(['prompt', 'prompt']);
    const at = (i: number): number => 10 + bytes(good) + bytes(broken.slice(0, i).join(''));
    expect(diagnostics.map((d) => [d.ruleId, d.offset, d.file, d.severity])).toEqual([
      ['transcript-invalid-json', at(0), 'a.jsonl', 'error'],
      ['transcript-not-object', at(1), 'a.jsonl', 'error'],
      ['transcript-missing-type', at(2), 'a.jsonl', 'warning'],
    ]);
    expect(diagnostics[0]?.reason).toContain('Expected one JSON object per line');
  });

  it('tolerates CRLF line endings and a byte-order mark', () => {
    const text = `\ufeff${user('a').replace('\n', '\r\n')}${user('b').replace('\n', '\r\n')}`;
    const { events, diagnostics, consumedBytes } = parseTranscriptChunk(text);
    expect(kinds(events)).toEqual(['prompt', 'prompt']);
    expect(diagnostics).toEqual([]);
    expect(consumedBytes).toBe(bytes(text));
  });

  it('splits assistant messages into text, thinking and tool-use events that keep their message id', () => {
    const text =
      assistant('msg_1', [{ type: 'thinking', thinking: 'hmm', signature: 's' }]) +
      assistant('msg_1', [{ type: 'text', text: 'Reading.' }]) +
      assistant('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/a.ts' } }]);
    const { events } = parseTranscriptChunk(text);
    expect(events).toMatchObject([
      { kind: 'thinking', text: 'hmm', messageId: 'msg_1' },
      { kind: 'text', text: 'Reading.', messageId: 'msg_1', synthetic: false },
      { kind: 'tool-use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/a.ts' }, messageId: 'msg_1' },
    ]);
  });

  it('merges lines of one API message without counting a replayed block or a replayed line twice', () => {
    const block = { type: 'tool_use', id: 'toolu_1', name: 'Edit', input: { file_path: '/repo/a.ts' } };
    const replayedLine = assistant('msg_2', [{ type: 'text', text: 'once' }], { uuid: 'same' });
    const text = assistant('msg_1', [block]) + assistant('msg_1', [block, { type: 'text', text: 'new' }]) + replayedLine + replayedLine;
    expect(kinds(parseTranscriptChunk(text).events)).toEqual(['tool-use', 'text', 'text']);
  });

  it('flags synthetic assistant messages', () => {
    const text = line({ type: 'assistant', message: { id: 'm', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'API Error' }] } });
    expect(parseTranscriptChunk(text).events[0]).toMatchObject({ kind: 'text', synthetic: true });
  });

  it('reads tool results with their structured toolUseResult and error flag', () => {
    const text =
      user([{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'ok' }], { toolUseResult: { stdout: 'ok', stderr: '' } }) +
      user([{ tool_use_id: 'toolu_2', type: 'tool_result', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], is_error: true }], {
        toolUseResult: 'Error: b',
      });
    expect(parseTranscriptChunk(text).events).toMatchObject([
      { kind: 'tool-result', toolUseId: 'toolu_1', content: 'ok', isError: false, structured: { stdout: 'ok' } },
      { kind: 'tool-result', toolUseId: 'toolu_2', content: 'a\nb', isError: true, structured: 'Error: b' },
    ]);
  });

  it('turns slash-command wrappers, shell escapes, interruptions and isMeta lines into non-prompt events', () => {
    const text =
      user('<command-message>git-tools:commit is running…</command-message>\n<command-name>/git-tools:commit</command-name>\n<command-args>fast</command-args>') +
      user('<local-command-stdout>Set model to sonnet</local-command-stdout>') +
      user('<bash-input>pwd</bash-input>') +
      user('<bash-stdout>/repo</bash-stdout><bash-stderr></bash-stderr>') +
      user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]) +
      user('This session is being continued from a previous conversation that ran out of context.') +
      user('<task-notification>done</task-notification>') +
      user('Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages.', { isMeta: true }) +
      user([{ type: 'text', text: 'skill body: remember that X' }], { isMeta: true });
    const { events } = parseTranscriptChunk(text);
    expect(events[0]).toMatchObject({ kind: 'command', name: '/git-tools:commit', args: 'fast' });
    expect(kinds(events).slice(1)).toEqual([
      'meta:command-output',
      'meta:bash-input',
      'meta:bash-output',
      'meta:interrupted',
      'meta:continuation',
      'meta:task-notification',
      'meta:is-meta',
      'meta:is-meta',
    ]);
  });

  it('keeps a # memory input and strips system reminders from prompts', () => {
    const text =
      user('<user-memory-input>Use tabs</user-memory-input>') +
      user([
        { type: 'text', text: 'ship it <system-reminder>ignore me</system-reminder>' },
        { type: 'text', text: '<system-reminder>only a reminder</system-reminder>' },
      ]);
    expect(parseTranscriptChunk(text).events).toMatchObject([
      { kind: 'meta', subtype: 'memory-input', text: 'Use tabs' },
      { kind: 'prompt', text: 'ship it' },
      { kind: 'meta', subtype: 'system-reminder' },
    ]);
  });

  it('marks inline subagent turns as sidechain', () => {
    const text = user('You are implementing LIN-3', { isSidechain: true }) + assistant('m', [{ type: 'text', text: 'On it.' }], { isSidechain: true });
    expect(parseTranscriptChunk(text).events.map((e) => e.isSidechain)).toEqual([true, true]);
  });

  it('reads metadata line types as meta events, including types it does not know yet', () => {
    const text =
      `${JSON.stringify({ type: 'summary', summary: 'Retry design', leafUuid: 'l' })}\n` +
      line({ type: 'system', content: '\u001b[1mStop\u001b[22m [hook] completed', isMeta: false, level: 'info' }) +
      line({ type: 'system', subtype: 'stop_hook_summary', hookCount: 1 }) +
      `${JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId: 's1' })}\n` +
      `${JSON.stringify({ type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false })}\n` +
      line({ type: 'attachment', attachment: { type: 'deferred_tools_delta' } }) +
      line({ type: 'queue-operation', operation: 'enqueue' });
    expect(parseTranscriptChunk(text).events).toMatchObject([
      { kind: 'meta', subtype: 'summary', text: 'Retry design' },
      { kind: 'meta', subtype: 'system', text: 'Stop [hook] completed' },
      { kind: 'meta', subtype: 'system', text: 'stop_hook_summary' },
      { kind: 'meta', subtype: 'permission-mode' },
      { kind: 'meta', subtype: 'file-history-snapshot' },
      { kind: 'meta', subtype: 'attachment' },
      { kind: 'meta', subtype: 'queue-operation' },
    ]);
  });

  it('puts each event at the byte offset of its own line', () => {
    const buf = fixture('torn-and-malformed');
    const { events } = parseTranscriptChunk(buf, { startOffset: 0 });
    for (const event of events) {
      const end = buf.indexOf(0x0a, event.offset);
      const obj = JSON.parse(buf.subarray(event.offset, end).toString('utf8')) as { uuid: string };
      expect(obj.uuid).toBe(event.uuid);
    }
  });

  it.each(fixtureNames)('gives the same events for %s whether read whole or in chunks split at any byte', (name) => {
    const buf = fixture(name);
    const whole = parseTranscriptChunk(buf);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: buf.length - 1 }), { maxLength: 6 }), (cuts) => {
        const events: TranscriptEvent[] = [];
        let checkpoint = 0;
        for (const end of [...cuts.sort((a, b) => a - b), buf.length]) {
          if (end <= checkpoint) continue;
          const r = parseTranscriptChunk(buf.subarray(checkpoint, end), { startOffset: checkpoint });
          events.push(...r.events);
          checkpoint += r.consumedBytes;
        }
        expect(checkpoint).toBe(whole.consumedBytes);
        // Replays are dropped within one chunk only; extraction dedups tool calls across chunks.
        expect(withoutReplays(events)).toEqual(whole.events);
      }),
      { numRuns: 40 },
    );
  });

  it('never throws and only ever consumes up to a newline, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(1000), (data, start) => {
        const r = parseTranscriptChunk(data, { startOffset: start });
        expect(r.consumedBytes).toBeLessThanOrEqual(data.length);
        if (r.consumedBytes > 0) expect(data[r.consumedBytes - 1]).toBe(0x0a);
        expect(data.subarray(r.consumedBytes).includes(0x0a)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const r = parseTranscriptChunk(text);
        expect(r.consumedBytes).toBe(bytes(text.slice(0, text.lastIndexOf('\n') + 1)));
      }),
    );
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildModelPrompt, condenseSession, MODEL_TYPES, parseModelAnswer, reflectionReason, shouldReflect } from './model-capture.js';
import { MAX_CANDIDATE_SUMMARY } from './extract.js';
import type { TranscriptEvent } from './transcript.js';

let seq = 0;
const base = (extra: Partial<TranscriptEvent> = {}) => ({ offset: seq++, isSidechain: false, sessionId: 's', cwd: '/repo', ...extra });
const prompt = (text: string): TranscriptEvent => ({ ...base(), kind: 'prompt', text }) as TranscriptEvent;
const say = (text: string, extra: Partial<TranscriptEvent> = {}): TranscriptEvent => ({ ...base(extra), kind: 'text', text, synthetic: false }) as TranscriptEvent;
const use = (id: string, name: string, input: Record<string, unknown>): TranscriptEvent => ({ ...base(), kind: 'tool-use', id, name, input }) as TranscriptEvent;
const result = (id: string, content: string, isError = false): TranscriptEvent => ({ ...base(), kind: 'tool-result', toolUseId: id, content, isError }) as TranscriptEvent;
const ctx = { session: 's', branch: 'main', model: 'claude-haiku', via: 'claude' as const };

describe('condenseSession', () => {
  it("keeps the person's words, the assistant's prose, commands with their failures and edits — not tool output, code or thinking", () => {
    const events: TranscriptEvent[] = [
      prompt('Why does the build fail?'),
      { ...base(), kind: 'thinking', text: 'private reasoning' } as TranscriptEvent,
      use('b1', 'Bash', { command: 'npm test\nsecond line' }),
      result('b1', 'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at many lines of stack', true),
      use('r1', 'Read', { file_path: '/repo/src/db.ts' }),
      result('r1', 'export const SECRET_CONTENT_OF_A_FILE = 1;'),
      say('The issue is that `db.ts` connects at import time.\n\n```ts\nconst x = 1;\n```'),
      use('e1', 'Edit', { file_path: '/repo/src/db.ts', old_string: 'a', new_string: 'b' }),
      result('e1', 'ok'),
      say('Subagent says hi', { isSidechain: true }),
    ];
    const { text, truncated } = condenseSession(events);
    expect(truncated).toBe(false);
    expect(text).toBe(
      [
        'Person: Why does the build fail?',
        'Command: npm test — failed: Error: connect ECONNREFUSED 127.0.0.1:5432',
        'Assistant: The issue is that `db.ts` connects at import time.\n\n[code]',
        'Edited: src/db.ts',
        'Assistant (subagent): Subagent says hi',
      ].join('\n'),
    );
    expect(text).not.toContain('private reasoning');
    expect(text).not.toContain('SECRET_CONTENT_OF_A_FILE');
  });

  it('keeps the start and the end of a long session around a marked gap, within the cap', () => {
    const events = Array.from({ length: 400 }, (_, i) => say(`Message ${i}: ${'word '.repeat(40)}`));
    const { text, truncated } = condenseSession(events, { maxChars: 5_000 });
    expect(truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(5_000);
    expect(text).toContain('Message 0:');
    expect(text).toContain('Message 399:');
    expect(text).toMatch(/\[… \d+ characters left out …\]/);
  });
});

describe('buildModelPrompt', () => {
  it('puts the schema and the session into the template, never reading $ in the session as a pattern', () => {
    expect(buildModelPrompt('S={{schema}}\n{{session}}', '{"a":1}\n', 'cost is $& and $1')).toBe('S={"a":1}\ncost is $& and $1');
  });

  it('ships a schema whose types are the ones the parser accepts', () => {
    const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../templates/capture/answer.schema.json', import.meta.url)), 'utf8'));
    expect(schema.properties.memories.items.properties.type.enum).toEqual([...MODEL_TYPES]);
    const template = readFileSync(fileURLToPath(new URL('../../templates/capture/prompt-v1.md', import.meta.url)), 'utf8');
    expect(template).toContain('{{schema}}');
    expect(template).toContain('{{session}}');
  });
});

describe('parseModelAnswer', () => {
  it('turns a valid answer into llm candidates that record the model', () => {
    const answer = JSON.stringify({
      memories: [
        { type: 'gotcha', summary: 'Tests need Postgres because db.ts connects at import time', body: 'npm test failed with ECONNREFUSED.', confidence: 0.8, files: ['src/db.ts', '/etc/passwd', '../x'] },
        { type: 'Decision', summary: 'Use the in-memory adapter in vitest.setup.ts' },
      ],
    });
    const { candidates, problems } = parseModelAnswer(answer, ctx);
    expect(problems).toEqual([]);
    expect(candidates.map((c) => [c.layer, c.type, c.confidence, c.model])).toEqual([
      ['llm', 'gotcha', 0.8, 'claude-haiku'],
      ['llm', 'decision', 0.75, 'claude-haiku'],
    ]);
    expect(candidates[0]?.files).toEqual(['src/db.ts']);
    expect(candidates[0]?.body).toContain('— proposed by claude-haiku (headless Claude Code) reading the session.');
  });

  it('reads the JSON inside a fenced or chatty answer', () => {
    const fenced = 'Here you go:\n```json\n{"memories":[{"type":"pattern","summary":"Run ruff format after every change"}]}\n```';
    expect(parseModelAnswer(fenced, ctx).candidates).toHaveLength(1);
    expect(parseModelAnswer('Sure! {"memories":[{"type":"context","summary":"The API is read-only for guests"}]} Hope that helps', ctx).candidates).toHaveLength(1);
  });

  it('leaves out what does not fit, saying why, and never throws', () => {
    const answer = { memories: [{ type: 'plan', summary: 'Do things next week' }, { type: 'gotcha', summary: 'short' }, { type: 'gotcha', summary: 'A body that is far too long', body: 'x'.repeat(5000) }, 'nope'] };
    const { candidates, problems } = parseModelAnswer(answer, ctx);
    expect(candidates).toEqual([]);
    expect(problems).toHaveLength(4);
    expect(parseModelAnswer('not json at all', ctx)).toEqual({ candidates: [], problems: ['the answer is not a JSON object with a "memories" list'] });
    expect(parseModelAnswer('{"items":[]}', ctx).problems).toEqual(['the answer has no "memories" list']);
  });

  it('only ever yields valid, bounded candidates whatever the answer (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (json, text) => {
        for (const answer of [json, text, JSON.stringify(json), { memories: Array.isArray(json) ? json : [json] }]) {
          const { candidates } = parseModelAnswer(answer, ctx);
          for (const c of candidates) {
            expect(MODEL_TYPES).toContain(c.type);
            expect(c.summary.length).toBeLessThanOrEqual(MAX_CANDIDATE_SUMMARY);
            expect(c.summary).not.toMatch(/\n/);
            expect(c.confidence).toBeLessThanOrEqual(0.95);
            expect(c.body.length).toBeLessThanOrEqual(1200);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('shouldReflect', () => {
  const at = (over: Partial<Parameters<typeof shouldReflect>[0]>) => shouldReflect({ stopHookActive: false, candidates: 2, prompts: 6, work: 10, last: undefined, everyTurns: 5, ...over });
  it('asks once work was done and candidates wait', () => {
    expect(at({})).toBe(true);
    expect(at({ work: 0 })).toBe(false);
  });
  it('never while a Stop hook already continues the turn, never without candidates', () => {
    expect(at({ stopHookActive: true })).toBe(false);
    expect(at({ candidates: 0 })).toBe(false);
  });
  it('at most once per everyTurns prompts, and only after more work', () => {
    expect(at({ last: { prompts: 3, work: 5 } })).toBe(false);
    expect(at({ last: { prompts: 1, work: 5 } })).toBe(true);
    expect(at({ last: { prompts: 1, work: 10 } })).toBe(false);
  });
});

describe('reflectionReason', () => {
  it('lists the candidates as facts and says how a reply records them', () => {
    const reason = reflectionReason([{ type: 'gotcha', summary: 'npm test needs Postgres running', confidence: 0.55 }]);
    expect(reason).toContain('- (gotcha, 0.55) npm test needs Postgres running');
    expect(reason).toContain('[MEMORY: decision]');
    expect(reason.split('\n')[0]).toMatch(/^Cortex \(project memory\): 1 thing/);
  });
});

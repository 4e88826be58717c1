import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHookInput } from './input.js';
import { contextOutput, fitContext, MAX_CONTEXT_CHARS } from './output.js';

describe('parseHookInput', () => {
  it('maps the Claude Code fields it uses and ignores the rest', () => {
    const { input, problem } = parseHookInput(
      JSON.stringify({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/r', hook_event_name: 'Stop', last_assistant_message: 'done', stop_hook_active: true, permission_mode: 'default', extra: 1 }),
    );
    expect(problem).toBeUndefined();
    expect(input).toEqual({ sessionId: 's1', transcriptPath: '/t.jsonl', cwd: '/r', hookEventName: 'Stop', lastAssistantMessage: 'done', stopHookActive: true });
  });

  it.each([
    ['', 'stdin is empty'],
    ['not json', 'stdin is not JSON'],
    ['[1,2]', 'stdin is not a JSON object'],
    ['null', 'stdin is not a JSON object'],
  ])('%j gives an empty input and says why', (text, why) => {
    const r = parseHookInput(text);
    expect(r.input).toEqual({});
    expect(r.problem).toContain(why);
  });

  it('drops fields of the wrong type', () => {
    expect(parseHookInput('{"session_id": 7, "prompt": ["x"], "source": "compact"}').input).toEqual({ source: 'compact' });
  });

  it('property: never throws', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => void parseHookInput(text)));
  });
});

describe('fitContext and contextOutput', () => {
  it('property: the injected text never exceeds the cap and is a prefix up to the marker', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20_000 }), fc.integer({ min: 2, max: 12_000 }), (text, max) => {
        const out = fitContext(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (text.length <= max) expect(out).toBe(text);
        else expect(text.startsWith(out.slice(0, -2))).toBe(true);
      }),
    );
  });

  it('wraps text in hookSpecificOutput and prints nothing for empty text', () => {
    expect(JSON.parse(contextOutput('SessionStart', 'facts'))).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'facts' } });
    expect(contextOutput('SessionStart', '  \n')).toBe('');
    const long = JSON.parse(contextOutput('UserPromptSubmit', 'x\n'.repeat(20_000))) as { hookSpecificOutput: { additionalContext: string } };
    expect(long.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(MAX_CONTEXT_CHARS);
  });
});

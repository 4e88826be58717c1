/**
 * `cortex --help` lists each command with the summary written in main.ts's `COMMANDS` (so that
 * `--help` loads no command module); `cortex help <command>` prints the command's own
 * `summary`. This keeps the two the same text.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/main.js';

describe('command summaries', () => {
  it.each(Object.keys(COMMANDS))("main.ts's summary of %s is the command's own", async (name) => {
    const entry = COMMANDS[name]!;
    const def = (await entry.load()).default;
    expect(entry.summary, `src/main.ts COMMANDS.${name}.summary differs from src/commands/${name}.ts: make them the same text`).toBe(def.summary);
  });
});

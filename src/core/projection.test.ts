import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEMORY_STATUSES, MEMORY_TYPES, type Memory } from './memory.js';
import { parseMemory } from './memory-format.js';
import {
  PROJECTION_FILES,
  PROJECTION_MARKER,
  isProjectionFile,
  parseProjectionIds,
  projectedTypes,
  renderEntry,
  renderProjections as renderWith,
  type RenderProjectionsOptions,
} from './projection.js';
import { testMemory } from '../../test/helpers/arbitrary.js';
import { PROJECTION_TEMPLATES } from '../../test/helpers/templates.js';

const renderProjections = (memories: readonly Memory[], options: Partial<RenderProjectionsOptions> = {}) =>
  renderWith(memories, { templates: PROJECTION_TEMPLATES, ...options });

const ROOT = new URL('../../', import.meta.url);
const GOLDEN = fileURLToPath(new URL('test/fixtures/merge-projections/', ROOT));

const memory = (patch: Partial<Memory> & Pick<Memory, 'id'>): Memory => testMemory(patch.id, patch);

const memoryArb: fc.Arbitrary<Memory> = fc
  .record({
    id: fc.stringMatching(/^[a-z]{1,6}-[a-z2-7]{6}$/),
    type: fc.constantFrom(...MEMORY_TYPES),
    summary: fc.string({ minLength: 1, maxLength: 30 }).map((s) => s.replace(/\s+/g, ' ').trim() || 'x'),
    status: fc.constantFrom(...MEMORY_STATUSES),
    priority: fc.integer({ min: 1, max: 10 }),
    pinned: fc.boolean(),
    tags: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
    created: fc.constantFrom('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'),
    body: fc.array(fc.constantFrom('Text with [[link-abcdef]].', '- [ ] todo', '# Heading', '> quote', '', '2 * 3'), { maxLength: 5 }).map((l) => l.join('\n').trim()),
  })
  .map((r) => memory(r));

const ids = (text: string) => parseProjectionIds(text);

describe('renderProjections', () => {
  it('matches the golden projections of the merged memory set', () => {
    const memories = readdirSync(`${GOLDEN}memories`).map((f) => {
      const r = parseMemory(readFileSync(`${GOLDEN}memories/${f}`, 'utf8'), { file: f, expectedId: f.replace(/\.md$/, '') });
      expect(r.diagnostics).toEqual([]);
      return r.memory as Memory;
    });
    const { archiveIds } = JSON.parse(readFileSync(`${GOLDEN}expected.json`, 'utf8')) as { archiveIds: string[] };
    const files = renderProjections(memories, { archiveIds });
    for (const name of PROJECTION_FILES) expect(files[name], name).toBe(readFileSync(`${GOLDEN}expected/${name}`, 'utf8'));
  });

  it('gives the same bytes for the same memories in any order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(memoryArb, { selector: (m) => m.id, maxLength: 12 }).chain((ms) => fc.tuple(fc.constant(ms), fc.shuffledSubarray(ms, { minLength: ms.length }))),
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}-[a-z2-7]{6}$/), { maxLength: 3 }),
        ([ms, shuffled], archiveIds) => {
          expect(renderProjections(shuffled, { archiveIds })).toEqual(renderProjections(ms, { archiveIds }));
        },
      ),
    );
  });

  it('lists every decision and rejection in exactly one of decisions.md and the archive', () => {
    fc.assert(
      fc.property(fc.uniqueArray(memoryArb, { selector: (m) => m.id, maxLength: 12 }), fc.func(fc.boolean()), (ms, inArchive) => {
        const archiveIds = ms.filter((m) => inArchive(m.id)).map((m) => m.id);
        const files = renderProjections(ms, { archiveIds });
        const active = ids(files['decisions.md']);
        const archived = ids(files['decisions-archive.md']);
        const decisions = ms.filter((m) => m.type === 'decision' || m.type === 'rejected');
        expect([...active, ...archived].sort()).toEqual(decisions.map((m) => m.id).sort());
        for (const m of decisions) {
          expect(archived.includes(m.id)).toBe(m.status !== 'active' || archiveIds.includes(m.id));
        }
        expect(ids(files['plan.md']).sort()).toEqual(
          ms.filter((m) => (m.type === 'plan' || m.type === 'progress') && m.status === 'active').map((m) => m.id).sort(),
        );
      }),
    );
  });

  it('sorts entries by created date, then id', () => {
    const files = renderProjections([
      memory({ id: 'b-bbbbbb', created: '2026-01-02T00:00:00Z' }),
      memory({ id: 'c-cccccc', created: '2026-01-01T00:00:00Z' }),
      memory({ id: 'a-aaaaaa', created: '2026-01-02T00:00:00Z' }),
    ]);
    expect(ids(files['decisions.md'])).toEqual(['c-cccccc', 'a-aaaaaa', 'b-bbbbbb']);
  });

  it('orders entries of one day by id, not by time, so the order can be read from the entries', () => {
    const files = renderProjections([
      memory({ id: 'a-aaaaaa', created: '2026-01-02T18:00:00Z' }),
      memory({ id: 'b-bbbbbb', created: '2026-01-02T09:00:00Z' }),
    ]);
    expect(ids(files['decisions.md'])).toEqual(['a-aaaaaa', 'b-bbbbbb']);
  });

  it('starts every file with the generated marker', () => {
    const files = renderProjections([]);
    for (const name of PROJECTION_FILES) expect(files[name].split('\n')[0]).toBe(PROJECTION_MARKER);
  });

  it('shows the empty text of a section without entries and drops template comments', () => {
    const files = renderProjections([]);
    expect(files['decisions.md']).toContain('## Decisions\n\nNo active decisions.\n\n## Rejected approaches\n\nNo rejected approaches.\n');
    expect(files['plan.md']).toContain('No active plan.');
    expect(files['decisions.md']).not.toContain('types:');
    expect(files['decisions.md']).not.toContain('Header of');
  });

  it('keeps body text as written and moves body headings below the entry heading', () => {
    const body = 'See [[wal-mode-p2x81d]], 2 * 3, _this_ and snake_case.\n\n# Why\n\n- [ ] check it\n\n> quoted * line';
    const text = renderProjections([memory({ id: 'a-aaaaaa', body })])['decisions.md'];
    expect(text).toContain('See [[wal-mode-p2x81d]], 2 * 3, _this_ and snake_case.\n\n#### Why\n\n- [ ] check it\n\n> quoted * line\n');
  });

  it('escapes summaries, so a summary cannot forge an id comment', () => {
    const text = renderProjections([memory({ id: 'a-aaaaaa', summary: '<!-- memory: forged-aaaaaa -->' })])['decisions.md'];
    expect(ids(text)).toEqual(['a-aaaaaa']);
  });

  it('uses custom templates, with their sections and types', () => {
    const template = '# Our log\n\n## Architecture\n<!-- types: architecture -->\n\n## Choices\n\nWhat we chose.\n<!-- types: decision -->\n<!-- empty: _Nothing yet._ -->\n';
    const text = renderProjections([memory({ id: 'a-aaaaaa', type: 'architecture', summary: 'Core and shell' })], {
      templates: { ...PROJECTION_TEMPLATES, 'decisions.md': template },
    })['decisions.md'];
    expect(text).toBe(
      `${PROJECTION_MARKER}\n\n# Our log\n\n## Architecture\n\n### Core and shell\n\n<!-- memory: a-aaaaaa -->\n\n*2026-01-01 · priority 5*\n\n## Choices\n\nWhat we chose.\n\n_Nothing yet._\n`,
    );
  });

  it('lists the file’s own types after the header when the template has no typed sections', () => {
    const text = renderProjections([memory({ id: 'a-aaaaaa' }), memory({ id: 'p-pppppp', type: 'plan' })], {
      templates: { ...PROJECTION_TEMPLATES, 'decisions.md': '# Decisions\n' },
    })['decisions.md'];
    expect(text).toBe(`${PROJECTION_MARKER}\n\n# Decisions\n\n### Summary of a-aaaaaa\n\n<!-- memory: a-aaaaaa -->\n\n*2026-01-01 · priority 5*\n`);
  });

  it('shows status, pinning and tags in the entry line', () => {
    const text = renderProjections([memory({ id: 'a-aaaaaa', status: 'superseded', pinned: true, tags: ['x', 'y'] })])['decisions-archive.md'];
    expect(text).toContain('*2026-01-01 · priority 5 · superseded · pinned · tags: x, y*');
  });
});

describe('projectedTypes', () => {
  it('lists the types of the default templates', () => {
    expect([...projectedTypes({ templates: PROJECTION_TEMPLATES })].sort()).toEqual(['decision', 'plan', 'progress', 'rejected']);
  });

  it('follows custom templates', () => {
    expect(projectedTypes({ templates: { ...PROJECTION_TEMPLATES, 'decisions.md': '# X\n\n## Arch\n<!-- types: architecture -->\n' } }).has('architecture')).toBe(true);
  });
});

describe('parseProjectionIds', () => {
  it('returns ids in order, keeping duplicates a text merge left behind', () => {
    const a = renderProjections([memory({ id: 'a-aaaaaa' }), memory({ id: 'b-bbbbbb', created: '2026-02-01T00:00:00Z' })])['decisions.md'];
    expect(parseProjectionIds(`${a}${a.split('\n').slice(1).join('\n')}`)).toEqual(['a-aaaaaa', 'b-bbbbbb', 'a-aaaaaa', 'b-bbbbbb']);
  });

  it('reads CRLF files and ignores comments that are not whole lines', () => {
    expect(parseProjectionIds('<!-- memory: a-aaaaaa -->\r\ntext <!-- memory: b-bbbbbb -->\r\n')).toEqual(['a-aaaaaa']);
  });
});

describe('isProjectionFile', () => {
  it.each([
    ['.cortex/decisions.md', true],
    ['.cortex/plan.md', true],
    ['.cortex/decisions-archive.md', true],
    ['/home/u/repo/.cortex/plan.md', true],
    ['C:\\repo\\.cortex\\decisions.md', true],
    ['.cortex/memories/plan.md', false],
    ['decisions.md', false],
    ['.cortex/config.yaml', false],
    ['docs/.cortex-plan.md', false],
  ])('%s → %s', (path, expected) => {
    expect(isProjectionFile(path)).toBe(expected);
  });
});

describe('renderEntry', () => {
  const LINES = [
    'Plain words and [[link-abcdef]], 2 * 3, _this_ and snake_case.',
    'Another line: with `code`, <b>inline</b> & entities &amp; stars *x*.',
    '(parenthesised) "quoted" \'single\'',
    '2026 was the year',
    'x',
    '- a list item',
    '- [ ] a task',
    '- [x] done task',
    '- another item',
    '',
    '',
    '# Heading',
    '> quote',
    '1. ordered',
    '2) ordered',
    '* star item',
    '+ plus item',
    '  indented',
    '    code',
    '```',
    '~~~',
    '---',
    '===',
    '- - -',
    '<div>',
    '[ref]: https://example.com',
    'trailing space ',
    'hard break\\',
    '-',
    '- ',
    '-  two spaces',
    '\ttab',
    '- # heading item',
    '- 1. nested',
    '|a|b|',
  ];
  it('writes the same bytes on the fast path as through remark', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 8 }), (lines) => {
        const m = memory({ id: 'a-aaaaaa', body: lines.join('\n').trim() });
        expect(renderEntry(m).text).toBe(renderEntry(m, { fastPath: false }).text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a list that continues after a blank line to remark (loose lists)', () => {
    const m = memory({ id: 'a-aaaaaa', body: '- [ ] a task\n\n- [x] done task\n- a list item' });
    expect(renderEntry(m).text).toBe(renderEntry(m, { fastPath: false }).text);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEMORY_STATUSES, type Memory } from './memory.js';
import { mergeProjectionText as mergeWith, parseProjection, type MergeProjectionTextOptions } from './projection-merge.js';
import { PROJECTION_FILES, parseProjectionIds, renderProjections as renderWith, type RenderProjectionsOptions } from './projection.js';
import { testMemory } from '../../test/helpers/arbitrary.js';
import { PROJECTION_TEMPLATES } from '../../test/helpers/templates.js';

const renderProjections = (memories: readonly Memory[], options: Partial<RenderProjectionsOptions> = {}) =>
  renderWith(memories, { templates: PROJECTION_TEMPLATES, ...options });
const mergeProjectionText = (options: Omit<MergeProjectionTextOptions, 'templates'> & { templates?: MergeProjectionTextOptions['templates'] }) =>
  mergeWith({ templates: PROJECTION_TEMPLATES, ...options });

const memory = (patch: Partial<Memory> & Pick<Memory, 'id'>): Memory => testMemory(patch.id, patch);

const TYPES = ['decision', 'rejected', 'plan', 'progress', 'gotcha'] as const;
const BODIES = ['', 'Because it is simpler.', '- [ ] todo\n- done', '# Why\n\nSee [[other-abcdef]].', '```\n### not an entry\n<!-- memory: fake-aaaaaa -->\n```'];

const fields = fc.record({
  type: fc.constantFrom(...TYPES),
  status: fc.constantFrom(...MEMORY_STATUSES),
  priority: fc.integer({ min: 1, max: 10 }),
  created: fc.constantFrom('2026-01-01T09:00:00Z', '2026-01-01T18:00:00Z', '2026-02-03T00:00:00Z'),
  body: fc.constantFrom(...BODIES),
});

/** A base set, and two sides that each add, delete and edit different memories. */
const scenario = fc
  .record({
    base: fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,4}-[a-z2-7]{6}$/), fields), { selector: ([id]) => id, maxLength: 8 }),
    roles: fc.array(fc.constantFrom('keep', 'ours-edit', 'theirs-edit', 'ours-delete', 'theirs-delete', 'both-delete'), { minLength: 8, maxLength: 8 }),
    edits: fc.array(fields, { minLength: 8, maxLength: 8 }),
    oursAdd: fc.array(fields, { maxLength: 3 }),
    theirsAdd: fc.array(fields, { maxLength: 3 }),
  })
  .map(({ base, roles, edits, oursAdd, theirsAdd }) => {
    const b = base.map(([id, f]) => memory({ id, ...f }));
    const ours: Memory[] = [];
    const theirs: Memory[] = [];
    const merged: Memory[] = [];
    b.forEach((m, i) => {
      const role = roles[i]!;
      const edited = memory({ ...m, ...edits[i]!, id: m.id });
      const o = role === 'ours-edit' ? edited : role === 'ours-delete' || role === 'both-delete' ? undefined : m;
      const t = role === 'theirs-edit' ? edited : role === 'theirs-delete' || role === 'both-delete' ? undefined : m;
      const r = role === 'ours-edit' || role === 'theirs-edit' ? edited : role.endsWith('delete') ? undefined : m;
      if (o) ours.push(o);
      if (t) theirs.push(t);
      if (r) merged.push(r);
    });
    oursAdd.forEach((f, i) => {
      const m = memory({ id: `ours-new${i}-aaaaaa`, ...f });
      ours.push(m);
      merged.push(m);
    });
    theirsAdd.forEach((f, i) => {
      const m = memory({ id: `theirs-new${i}-aaaaaa`, ...f });
      theirs.push(m);
      merged.push(m);
    });
    return { base: b, ours, theirs, merged };
  });

describe('mergeProjectionText', () => {
  it('gives exactly the projection of the merged memories when no memory changed on both sides', () => {
    fc.assert(
      fc.property(scenario, ({ base, ours, theirs, merged }) => {
        const [pb, po, pt, pm] = [base, ours, theirs, merged].map((ms) => renderProjections(ms));
        for (const file of PROJECTION_FILES) {
          const r = mergeProjectionText({ base: pb![file], ours: po![file], theirs: pt![file], file });
          expect(r.conflicts).toEqual([]);
          expect(r.text, file).toBe(pm![file]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('is the identity when nothing changed, and takes the one side that changed', () => {
    const a = renderProjections([memory({ id: 'a-aaaaaa' })])['decisions.md'];
    const b = renderProjections([memory({ id: 'a-aaaaaa' }), memory({ id: 'b-bbbbbb' })])['decisions.md'];
    expect(mergeProjectionText({ base: a, ours: a, theirs: a, file: 'decisions.md' }).text).toBe(a);
    expect(mergeProjectionText({ base: a, ours: a, theirs: b, file: 'decisions.md' }).text).toBe(b);
    expect(mergeProjectionText({ base: a, ours: b, theirs: a, file: 'decisions.md' }).text).toBe(b);
  });

  it('merges add/add of projections that did not exist in the base', () => {
    const a = renderProjections([memory({ id: 'a-aaaaaa' })])['plan.md'];
    const ours = renderProjections([memory({ id: 'p-pppppp', type: 'plan' })])['plan.md'];
    const theirs = renderProjections([memory({ id: 'q-qqqqqq', type: 'progress' })])['plan.md'];
    const r = mergeProjectionText({ base: null, ours, theirs, file: 'plan.md' });
    expect(r.clean).toBe(true);
    expect(r.text).toBe(renderProjections([memory({ id: 'p-pppppp', type: 'plan' }), memory({ id: 'q-qqqqqq', type: 'progress' })])['plan.md']);
    expect(a).not.toBe(r.text);
  });

  it('keeps both versions of an entry changed on both sides between conflict markers', () => {
    const base = renderProjections([memory({ id: 'a-aaaaaa' }), memory({ id: 'b-bbbbbb' })])['decisions.md'];
    const ours = renderProjections([memory({ id: 'a-aaaaaa', priority: 9 }), memory({ id: 'b-bbbbbb' })])['decisions.md'];
    const theirs = renderProjections([memory({ id: 'a-aaaaaa', body: 'Their reason.' }), memory({ id: 'b-bbbbbb' })])['decisions.md'];
    const r = mergeProjectionText({ base, ours, theirs, file: 'decisions.md', labels: { ours: 'HEAD', theirs: 'feature' } });
    expect(r.clean).toBe(false);
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0]!.reason).toContain('a-aaaaaa');
    const lines = r.text!.split('\n');
    expect(lines[r.conflicts[0]!.line! - 1]).toBe('<<<<<<< HEAD');
    expect(r.text).toContain('priority 9');
    expect(r.text).toContain('Their reason.');
    expect(r.text).toContain('>>>>>>> feature');
    expect(parseProjectionIds(r.text!).filter((id) => id === 'b-bbbbbb')).toHaveLength(1);
  });

  it('follows custom templates, including one without typed sections', () => {
    for (const template of ['# Decisions\n', '# Log\n\n## Choices\n\nWhat we chose.\n<!-- types: decision -->\n<!-- empty: _Nothing yet._ -->\n\n## Notes\n\nFree text.\n']) {
      const templates = { ...PROJECTION_TEMPLATES, 'decisions.md': template };
      const render = (ms: Memory[]) => renderProjections(ms, { templates })['decisions.md'];
      const a = memory({ id: 'a-aaaaaa' });
      const b = memory({ id: 'b-bbbbbb', created: '2026-03-01T00:00:00Z', body: '- one\n- two' });
      const c = memory({ id: 'c-cccccc', created: '2026-02-01T00:00:00Z' });
      const r = mergeProjectionText({ base: render([a]), ours: render([a, b]), theirs: render([c]), file: 'decisions.md', templates });
      expect(r.text).toBe(render([b, c]));
    }
  });

  it('de-duplicates entries a plain text merge left twice', () => {
    const one = renderProjections([memory({ id: 'a-aaaaaa' })])['decisions.md'];
    const doubled = `${one}${one.slice(one.indexOf('### '))}`;
    expect(parseProjection(doubled).entries).toHaveLength(1);
    expect(mergeProjectionText({ base: one, ours: doubled, theirs: one, file: 'decisions.md' }).text).toBe(one);
  });
});

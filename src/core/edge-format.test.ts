import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EDGE_KEY_ORDER, EDGE_ORIGINS, EDGE_STATUSES, RELATIONS, edgeFileName, type Edge } from './edge.js';
import { edgeFrontmatter, parseEdge, renderEdge } from './edge-format.js';
import { normalizeBody } from './memory-format.js';

const FILE = '.cortex/edges/chose-sqlite-k3f9qa--refines--use-wal-mode-p2x81d.md';

const canonical = [
  '---',
  'source: chose-sqlite-k3f9qa',
  'target: use-wal-mode-p2x81d',
  'relation: refines',
  'strength: 0.8',
  'status: active',
  'bidirectional: false',
  'origin: manual',
  'created: 2026-11-21T10:00:00Z',
  'reviewed_by: ana',
  '---',
  'WAL mode is how the SQLite choice copes with concurrent hooks.',
  '',
].join('\n');

const edgeIdArb = fc
  .tuple(
    fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 }),
    fc.stringMatching(/^[a-z2-7]{6}$/),
  )
  .map(([words, suffix]) => `${words.join('-')}-${suffix}`);

const extraValueArb = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ minLength: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }),
);

const edgeArb: fc.Arbitrary<Edge> = fc.record({
  source: edgeIdArb,
  target: edgeIdArb,
  relation: fc.constantFrom(...RELATIONS),
  strength: fc.double({ min: 0, max: 1, noNaN: true }),
  status: fc.constantFrom(...EDGE_STATUSES),
  bidirectional: fc.boolean(),
  origin: fc.constantFrom(...EDGE_ORIGINS),
  created: fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')),
  body: fc
    .oneof(
      fc.string({ unit: 'grapheme' }),
      // Markdown-shaped lines, including a "---" that must not end the frontmatter twice.
      fc.array(fc.constantFrom('---', '  indented', '', 'text: with colon', '# heading', '```', '- item', '\t', ' ', '...'), { maxLength: 8 }).map((lines) => lines.join('\n')),
    )
    .map((s) => normalizeBody(s.replace(/\r/g, ''))),
  extra: fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(EDGE_KEY_ORDER as readonly string[]).includes(k)),
    extraValueArb,
    { maxKeys: 4 },
  ),
});

describe('parseEdge', () => {
  it('reads every field, unknown keys into extra and the body as rationale', () => {
    const { edge, diagnostics } = parseEdge(canonical, { file: FILE });
    expect(diagnostics).toEqual([]);
    expect(edge).toEqual({
      source: 'chose-sqlite-k3f9qa',
      target: 'use-wal-mode-p2x81d',
      relation: 'refines',
      strength: 0.8,
      status: 'active',
      bidirectional: false,
      origin: 'manual',
      created: '2026-11-21T10:00:00Z',
      body: 'WAL mode is how the SQLite choice copes with concurrent hooks.',
      extra: { reviewed_by: 'ana' },
    });
  });

  it('fills defaults for optional fields', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: contradicts\ncreated: 2026-01-01T00:00:00Z\n---\n';
    const { edge, diagnostics } = parseEdge(text);
    expect(diagnostics).toEqual([]);
    expect(edge).toMatchObject({ strength: 0.5, status: 'active', bidirectional: false, origin: 'manual', body: '' });
  });

  it('accepts a relation alias with a warning', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: Conflicts With\ncreated: 2026-01-01T00:00:00Z\n---\n';
    const { edge, diagnostics } = parseEdge(text);
    expect(edge?.relation).toBe('contradicts');
    expect(diagnostics).toMatchObject([{ ruleId: 'relation-alias', severity: 'warning', line: 4 }]);
  });

  it('rejects an unknown relation and lists the valid ones', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: loves\ncreated: 2026-01-01T00:00:00Z\n---\n';
    const { edge, diagnostics } = parseEdge(text);
    expect(edge).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'edge-relation-unknown', severity: 'error', line: 4 });
    for (const relation of RELATIONS) expect(diagnostics[0]?.hint).toContain(relation);
  });

  it('rejects a reversed alias and says to swap the endpoints', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: superseded_by\ncreated: 2026-01-01T00:00:00Z\n---\n';
    const { edge, diagnostics } = parseEdge(text);
    expect(edge).toBeUndefined();
    expect(diagnostics[0]?.ruleId).toBe('edge-relation-reversed');
    expect(diagnostics[0]?.hint).toMatch(/Swap source and target.*supersedes/);
  });

  it('requires the frontmatter to agree with the file name', () => {
    const { edge, diagnostics } = parseEdge(canonical, { file: '.cortex/edges/chose-sqlite-k3f9qa--relates_to--use-wal-mode-p2x81d.md' });
    expect(edge).toBeUndefined();
    expect(diagnostics).toMatchObject([{ ruleId: 'edge-name-mismatch', severity: 'error' }]);
    expect(diagnostics[0]?.hint).toContain('chose-sqlite-k3f9qa--refines--use-wal-mode-p2x81d.md');
  });

  it('accepts an alias in the frontmatter when it normalises to the relation in the name', () => {
    const text = canonical.replace('relation: refines', 'relation: refinement');
    const { edge, diagnostics } = parseEdge(text, { file: FILE });
    expect(edge?.relation).toBe('refines');
    expect(diagnostics.map((d) => d.ruleId)).toEqual(['relation-alias']);
  });

  it('reports a file name that is not an edge name', () => {
    const { edge, diagnostics } = parseEdge(canonical, { file: 'C:\\repo\\.cortex\\edges\\notes.md' });
    expect(edge).toBeUndefined();
    expect(diagnostics).toMatchObject([{ ruleId: 'edge-name-invalid' }]);
  });

  it('rejects unsafe or missing endpoints', () => {
    const text = '---\nsource: ../../etc/passwd\nrelation: refines\ncreated: 2026-01-01T00:00:00Z\n---\n';
    const { edge, diagnostics } = parseEdge(text);
    expect(edge).toBeUndefined();
    expect(diagnostics.map((d) => d.ruleId).sort()).toEqual(['edge-endpoint-missing', 'edge-endpoint-unsafe']);
  });

  it('reports bad optional fields as errors with safe defaults, keeping the edge', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: refines\nstrength: 1.5\nstatus: maybe\nbidirectional: yes\norigin: llm\ncreated: yesterday\n---\n';
    const { edge, diagnostics } = parseEdge(text);
    expect(edge).toMatchObject({ strength: 0.5, status: 'active', bidirectional: false, origin: 'manual', created: '1970-01-01T00:00:00Z' });
    expect(diagnostics.map((d) => [d.line, d.ruleId])).toEqual([
      [5, 'field-invalid'],
      [6, 'field-invalid'],
      [7, 'field-invalid'],
      [8, 'field-invalid'],
      [9, 'date-invalid'],
    ]);
  });

  it('uses the fallback date with a warning when created is missing', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: refines\n---\n';
    const { edge, diagnostics } = parseEdge(text, { fallbackDate: '2026-02-03T04:05:06Z' });
    expect(edge?.created).toBe('2026-02-03T04:05:06Z');
    expect(diagnostics).toMatchObject([{ ruleId: 'date-missing', severity: 'warning' }]);
  });

  it('reports missing frontmatter and invalid YAML with a line', () => {
    expect(parseEdge('just text').diagnostics).toMatchObject([{ ruleId: 'frontmatter-missing', line: 1 }]);
    const broken = parseEdge('---\nsource: a\ntarget: b\nstrength: [\n---\n');
    expect(broken.edge).toBeUndefined();
    expect(broken.diagnostics).toMatchObject([{ ruleId: 'yaml-syntax', line: 4 }]);
    expect(parseEdge('---\nsource: a\nsource: b\n---\n').diagnostics[0]?.ruleId).toBe('yaml-syntax');
    expect(parseEdge('---\n- a\n---\n').diagnostics[0]?.ruleId).toBe('frontmatter-shape');
  });

  it('reads CRLF files and a BOM like LF files', () => {
    const crlf = `\uFEFF${canonical.replace(/\n/g, '\r\n')}`;
    expect(parseEdge(crlf, { file: FILE })).toEqual(parseEdge(canonical, { file: FILE }));
  });

  it('keeps unknown keys that shadow Object.prototype as plain data', () => {
    const text = '---\nsource: a\ntarget: b\nrelation: refines\ncreated: 2026-01-01T00:00:00Z\n__proto__: x\nconstructor: y\n---\n';
    const { edge } = parseEdge(text);
    expect(Object.getPrototypeOf(edge?.extra)).toBe(Object.prototype);
    expect(Object.keys(edge?.extra ?? {})).toEqual(['__proto__', 'constructor']);
    expect(renderEdge(edge!)).toContain('__proto__: x\nconstructor: y\n');
  });
});

describe('edgeFrontmatter', () => {
  it('orders the known keys first, then unknown keys in their order', () => {
    const { edge } = parseEdge(canonical);
    expect(Object.keys(edgeFrontmatter({ ...edge!, extra: { z: 1, a: 2 } }))).toEqual([...EDGE_KEY_ORDER, 'z', 'a']);
  });
});

describe('renderEdge', () => {
  it('renders the canonical file byte for byte', () => {
    const { edge } = parseEdge(canonical, { file: FILE });
    expect(renderEdge(edge!)).toBe(canonical);
  });

  it('writes the key order source, target, relation, strength, status, bidirectional, origin, created', () => {
    const scrambled = [
      '---',
      'created: 2026-11-21T10:00:00Z',
      'reviewed_by: ana',
      'origin: manual',
      'bidirectional: false',
      'status: active',
      'strength: 0.8',
      'relation: refines',
      'target: use-wal-mode-p2x81d',
      'source: chose-sqlite-k3f9qa',
      '---',
      '',
      '',
      'WAL mode is how the SQLite choice copes with concurrent hooks.   ',
      '',
      '',
    ].join('\n');
    expect(renderEdge(parseEdge(scrambled).edge!)).toBe(canonical);
  });

  it('writes no body section when the rationale is empty', () => {
    const { edge } = parseEdge(canonical);
    expect(renderEdge({ ...edge!, body: '', extra: {} })).toMatch(/created: 2026-11-21T10:00:00Z\n---\n$/);
  });

  it('produces a file whose name key agrees with its frontmatter (property)', () => {
    fc.assert(
      fc.property(edgeArb, (edge) => {
        const result = parseEdge(renderEdge(edge), { file: `.cortex/edges/${edgeFileName(edge)}` });
        expect(result.diagnostics).toEqual([]);
      }),
    );
  });

  it('round-trips: parse(render(e)) = e (property)', () => {
    fc.assert(
      fc.property(edgeArb, (edge) => {
        const { edge: parsed, diagnostics } = parseEdge(renderEdge(edge));
        expect(diagnostics).toEqual([]);
        expect(parsed).toEqual(edge);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent byte for byte: render(parse(render(e))) = render(e) (property)', () => {
    fc.assert(
      fc.property(edgeArb, (edge) => {
        const text = renderEdge(edge);
        expect(renderEdge(parseEdge(text).edge!)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

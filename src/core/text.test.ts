import { describe, expect, it } from 'vitest';
import { analyze, processTerm, tokenize } from './text.js';
import { planQuery } from './query.js';

describe('tokenize', () => {
  it('splits on punctuation and keeps unicode letters', () => {
    expect(tokenize('Chose SQLite (zero-config), naïve café')).toEqual(['Chose', 'SQLite', 'zero', 'config', 'naïve', 'café']);
  });
});

describe('processTerm', () => {
  it('drops stop words and stems', () => {
    expect(processTerm('the')).toBeNull();
    expect(processTerm('Databases')).toBe(processTerm('database'));
    expect(processTerm('running')).toBe('run');
  });

  it('splits camelCase identifiers into parts as well', () => {
    expect(processTerm('getUserById')).toEqual(expect.arrayContaining(['getuserbyid', 'user']));
  });
});

describe('analyze', () => {
  it('analyses a question to its content words', () => {
    expect(analyze('Which database did we pick?')).toEqual(['databas', 'pick']);
  });
});

describe('planQuery', () => {
  it('expands coding synonyms and hints at decisions', () => {
    const plan = planQuery('which database did we pick');
    expect(plan.expansions).toEqual(expect.arrayContaining(['sqlite', 'postgr', 'chose']));
    expect(plan.typeHints[0]).toBe('decision');
  });

  it('does not expand when asked not to', () => {
    expect(planQuery('database', { expand: false }).expansions).toEqual([]);
  });
});

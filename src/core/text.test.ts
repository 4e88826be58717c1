import { describe, expect, it } from 'vitest';
import { IRREGULAR_BASE, analyze, processTerm, tokenize } from './text.js';
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

  it('maps irregular past forms to their base form before stemming', () => {
    expect(processTerm('went')).toBe(processTerm('go'));
    expect(processTerm('bought')).toBe(processTerm('buying'));
    expect(processTerm('chose')).toBe(processTerm('choose'));
    expect(processTerm('Thought')).toBe(processTerm('thinks'));
    expect(processTerm('was')).toBeNull();
    // Ambiguous forms keep their own meaning.
    expect(processTerm('ground')).toBe('ground');
    expect(processTerm('rose')).toBe('rose');
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
    // "chose" is analysed as "choose", so the expansion appears once, as its stem.
    expect(plan.expansions).toEqual(expect.arrayContaining(['sqlite', 'postgr', processTerm('chose')]));
    expect(plan.typeHints[0]).toBe('decision');
  });

  it('adds time words to a question about when, and only then', () => {
    expect(planQuery('When did Anna adopt the puppy?').timeTerms).toEqual(expect.arrayContaining(['yesterdai', 'week', 'march']));
    expect(planQuery('what year did we move to Fly').timeTerms.length).toBeGreaterThan(0);
    expect(planQuery('Which puppy did Anna adopt?').timeTerms).toEqual([]);
    // Never a word the question already has.
    expect(planQuery('when did we ship last week').timeTerms).not.toContain('week');
  });

  it('does not expand when asked not to', () => {
    expect(planQuery('database', { expand: false }).expansions).toEqual([]);
    expect(planQuery('when did we pick a database', { expand: false }).timeTerms).toEqual([]);
  });
});

describe('IRREGULAR_BASE', () => {
  it('maps only past forms, never a base form to something else', () => {
    for (const [form, base] of IRREGULAR_BASE) {
      expect(form).not.toBe(base);
      expect(IRREGULAR_BASE.has(base), `${form} → ${base}`).toBe(false);
    }
  });
});

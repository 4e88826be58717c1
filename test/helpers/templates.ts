/**
 * The shipped templates as the shell hands them to the core (`src/templates.ts` reads the
 * same files): the core has no copy of them, so its tests read them here.
 */
import { readFileSync } from 'node:fs';
import type { ProjectionFile } from '../../src/core/projection.js';

const read = (name: string): string => readFileSync(new URL(`../../templates/${name}`, import.meta.url), 'utf8');

/** `templates/surface.md`. */
export const SURFACE_TEMPLATE = read('surface.md');

/** `templates/projection-*.md` by projection file. */
export const PROJECTION_TEMPLATES: Readonly<Record<ProjectionFile, string>> = {
  'decisions.md': read('projection-decisions.md'),
  'plan.md': read('projection-plan.md'),
  'decisions-archive.md': read('projection-archive.md'),
};

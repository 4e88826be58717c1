/**
 * SessionStart: the briefing as context. After compaction (`source: "compact"`) the
 * shorter variant, since the summary Claude Code keeps already covers part of it.
 *
 * The cached briefing is served through `src/cache/surface-cache.ts`, which uses node
 * built-ins only: on that path this hook loads no index, no YAML, no markdown toolchain
 * (session-start-cached.ts; the `cortex` executable runs it from a bundle of its own). On
 * a miss the briefing is built with the surface use case, which also refreshes the cache.
 * Either way the ids shown are recorded for the session, so anticipatory recall does not
 * repeat them.
 */
import { contextOptions, type HookContext } from './context.js';
import { briefingVariant, cachedBriefing, deliverBriefing, type Briefing } from './session-start-cached.js';

/** The briefing built anew (a miss of the surface cache), which refreshes the cache. */
export async function buildBriefing(h: HookContext): Promise<Briefing> {
  const [{ openContext }, { surface }] = await Promise.all([import('../services/context.js'), import('../api/surface.js')]);
  const out = await surface(openContext(contextOptions(h)), { variant: briefingVariant(h) });
  return { text: out.text, ids: out.items.map((i) => i.id) };
}

export async function sessionStart(h: HookContext): Promise<string> {
  return deliverBriefing(h, cachedBriefing(h) ?? (await buildBriefing(h)));
}

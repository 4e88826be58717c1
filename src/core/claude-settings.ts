/**
 * Merging Cortex's hook block into a Claude Code `settings.json` value. Pure: parsed
 * JSON in, parsed JSON out. Every existing key and hook is kept; a Cortex hook already
 * present (recognised by its `cortex hook <event>` command) is updated in place, never
 * duplicated, so re-running the merge changes nothing.
 */

/** One command hook as Claude Code's settings declare it. */
export interface ClaudeHookCommand {
  type: string;
  command?: string;
  shell?: string;
  timeout?: number;
  [key: string]: unknown;
}

/** A matcher group: `{ matcher?, hooks: [...] }`. */
export interface ClaudeMatcherGroup {
  matcher?: string;
  hooks: ClaudeHookCommand[];
  [key: string]: unknown;
}

/** Settings keys by Claude Code event name, e.g. `{ Stop: [{ hooks: [...] }] }`. */
export type ClaudeHookBlock = Record<string, ClaudeMatcherGroup[]>;

export interface HookChange {
  /** Claude Code event name, e.g. `SessionStart`. */
  event: string;
  action: 'added' | 'updated' | 'unchanged';
}

export interface MergeHooksResult {
  /** The merged settings (a new object; the input is not modified). */
  settings: Record<string, unknown>;
  changes: HookChange[];
  /** Set when the settings cannot take hooks (e.g. `hooks` is not an object); `settings` is then the input. */
  problem?: string | undefined;
}

/**
 * True when `command` runs `cortex hook <subcommand>` (also through npx, a `.js` or
 * `.cmd` path, or after a guard such as `command -v cortex || exit 0;`).
 *
 * @example
 * isCortexHookCommand('command -v cortex >/dev/null 2>&1 || exit 0; cortex hook stop', 'stop') // true
 * isCortexHookCommand('npx eslint --fix', 'stop') // false
 */
export function isCortexHookCommand(command: unknown, subcommand: string): boolean {
  if (typeof command !== 'string') return false;
  const escaped = subcommand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[\\s;&|/\\\\"'])cortex(?:\\.js|\\.cmd|\\.mjs)?["']?\\s+hook\\s+${escaped}(?=$|[\\s;&|"'])`).test(command);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted: equal values give equal strings whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Merges `block` into `settings.hooks`. `subcommandOf` maps a Claude Code event name to
 * the `cortex hook` subcommand that recognises an existing Cortex hook for it.
 *
 * @example
 * const { settings, changes } = mergeHookSettings(
 *   { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } },
 *   { Stop: [{ hooks: [{ type: 'command', shell: 'bash', command: 'cortex hook stop' }] }] },
 *   { subcommandOf: (event) => (event === 'Stop' ? 'stop' : event) },
 * );
 * // settings.hooks.Stop has both groups; changes: [{ event: 'Stop', action: 'added' }]
 */
export function mergeHookSettings(
  settings: unknown,
  block: ClaudeHookBlock,
  options: { subcommandOf: (event: string) => string },
): MergeHooksResult {
  const base = settings === undefined || settings === null ? {} : settings;
  if (!isObject(base)) return { settings: {}, changes: [], problem: 'the settings file must hold a JSON object' };
  const out = structuredClone(base);
  if (out.hooks === undefined) out.hooks = {};
  if (!isObject(out.hooks)) return { settings: base, changes: [], problem: '"hooks" must be an object of event names to lists' };
  const hooks = out.hooks;
  const changes: HookChange[] = [];
  for (const [event, groups] of Object.entries(block)) {
    const subcommand = options.subcommandOf(event);
    if (hooks[event] === undefined) hooks[event] = [];
    const list = hooks[event];
    if (!Array.isArray(list)) return { settings: base, changes: [], problem: `"hooks.${event}" must be a list of matcher groups` };
    const desired = groups.flatMap((g) => g.hooks).find((h) => isCortexHookCommand(h.command, subcommand));
    let found = false;
    for (const group of list) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const at = group.hooks.findIndex((h: unknown) => isObject(h) && isCortexHookCommand(h.command, subcommand));
      if (at === -1) continue;
      found = true;
      if (desired !== undefined && canonical(group.hooks[at]) !== canonical(desired)) {
        group.hooks[at] = structuredClone(desired);
        changes.push({ event, action: 'updated' });
      } else {
        changes.push({ event, action: 'unchanged' });
      }
      break;
    }
    if (!found) {
      list.push(...structuredClone(groups));
      changes.push({ event, action: 'added' });
    }
  }
  return { settings: out, changes };
}

/**
 * The indentation a JSON text uses (two spaces when it cannot tell), so a rewrite keeps
 * the person's formatting.
 *
 * @example
 * detectIndent('{\n    "a": 1\n}') // '    '
 */
export function detectIndent(text: string): string {
  const m = /^\{\s*?\n([ \t]+)"/.exec(text);
  return m?.[1] ?? '  ';
}

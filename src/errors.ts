/**
 * Error classes shared by every layer. Imports nothing.
 *
 * Callers classify errors by `instanceof` or by `code`, never by message text.
 * Only `main.ts` (the error boundary; `cli.ts` is the executable that runs it) turns them into
 * output and exit codes.
 */

/** Where bugs (InternalError, exit 70) are reported. */
export const ISSUES_URL = 'https://github.com/cortex-memory/cortex/issues';

export interface CortexErrorOptions {
  /** The next command to run, or what to change, in one sentence. */
  hint?: string | undefined;
  data?: Record<string, unknown> | undefined;
  cause?: unknown;
}

export class CortexError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: CortexErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.data = options.data;
  }

  toJSON(): { code: string; message: string; hint?: string; data?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.data === undefined ? {} : { data: this.data }),
    };
  }
}

/** Bad arguments or flags: exit code 2. */
export class UsageError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('USAGE', message, options);
  }
}

/** No `.cortex/` directory above the working directory. */
export class NotInitializedError extends CortexError {
  constructor(dir: string, options: CortexErrorOptions = {}) {
    super('NOT_INITIALIZED', `No .cortex/ directory found in ${dir} or any parent directory.`, {
      hint: 'Run `cortex init` in the repository root.',
      ...options,
    });
  }
}

export class MemoryNotFoundError extends CortexError {
  constructor(id: string, options: CortexErrorOptions = {}) {
    super('MEMORY_NOT_FOUND', `No memory with id "${id}".`, {
      hint: 'Run `cortex list` or `cortex recall <query>` to find the id.',
      ...options,
      data: { id, ...options.data },
    });
  }
}

/** A file that cannot be parsed (memory, edge, config, cache that must not be rebuilt). */
export class ParseError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('PARSE', message, options);
  }
}

export class GitError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('GIT', message, options);
  }
}

/** A merge or concurrent write that could not be reconciled. */
export class ConflictError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('CONFLICT', message, options);
  }
}

/** A lock held by another process for longer than we are willing to wait. */
export class LockError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('LOCKED', message, options);
  }
}

/** An optional package a command needs was left out of this install (`npm --omit=optional`). */
export class MissingDependencyError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('MISSING_DEPENDENCY', message, options);
  }
}

/** A broken invariant: a bug in Cortex, never the user's fault. */
export class InternalError extends CortexError {
  constructor(message: string, options: CortexErrorOptions = {}) {
    super('INTERNAL', message, options);
  }
}

/** True for Node's fs errors with the given code (ENOENT, EEXIST …). */
export function isErrnoCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

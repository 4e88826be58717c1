/**
 * Cortex library entry: the API, its types, the errors, and the pure format functions.
 */
export { openCortex, type Cortex } from './api/cortex.js';
export { init, type InitOptions, type InitOutput, type InitStep } from './setup/init.js';
export type { Context, OpenCortexOptions } from './services/context.js';
export type { RememberInput, RememberResult } from './api/remember.js';
export type { RecallInput, RecallMode, RecallOutput, RecallResult } from './api/recall/recall.js';
export type { RecallFileInput, RecallFileOutput } from './api/recall/file.js';
export type { FileAnchored } from './core/file-recall.js';
export type { AnchorReport, IndexCodeInput, IndexCodeOutput } from './api/index-code.js';
export type { AnchorState, AnchorStatus } from './cache/code-index.js';
export type { CodeSymbol, SymbolKind } from './core/code-symbols.js';
export type { EmbedIndexInput, EmbedIndexOutput, EmbedIndexProgress, EmbedTierReport } from './services/embed.js';
export { EmbedUnavailableError, type Embedder } from './embed/embedder.js';
export { createTestEmbedder, type TestEmbedder, type TestEmbedderOptions } from './embed/test-embedder.js';
export type { ForgetInput, ForgetOutput, GetResult, ListInput, ListOutput, UpdateInput, UpdateResult } from './api/memories.js';
export type { LintOutput } from './api/lint.js';
export type { StatusOutput, TierStatus } from './api/status.js';
export type { GraphView, OpenGraphOptions } from './services/graph.js';
export type { LinkInput, LinkResult, UnlinkInput, UnlinkOutput } from './api/link.js';
export type { GraphNodeSummary, TraverseInput, TraverseOutput } from './api/traverse.js';
export type { ConsolidateList, DuplicateProposal, MergeInput, MergeResult, ReviewPairInput, ReviewPairOutput, SuggestedEdge } from './api/consolidate.js';
export type { AutoLinkResult } from './services/autolink.js';
export type { CodeLink, RelatedMemory } from './services/enrich.js';
export type { ReviewEntry, ReviewKind } from './cache/review-queue.js';
export { RELATIONS, type Edge, type EdgeOrigin, type EdgeStatus, type Relation } from './core/edge.js';
export type { SurfaceInput, SurfaceItemInfo, SurfaceOutput, TargetWrite } from './api/surface.js';
export type { LifecycleChange, LifecycleInput, LifecycleOutput } from './api/lifecycle.js';
export { readCachedSurface, type SurfaceCacheOptions, type SurfaceVariant } from './cache/surface-cache.js';
export type { CaptureInput, CaptureOutput } from './api/capture.js';
export type { LinkPendingOptions, LinkPendingResult } from './api/link-pending.js';
export type { AnticipateInput, AnticipateOutput } from './api/anticipate.js';
export type { ReviewItem } from './api/review.js';
export { setupClaude, type ClaudeSetupOptions } from './setup/claude-setup.js';
export { runHook, type HookRunOptions, type HookRunResult } from './hooks/run.js';
export { HOOK_EVENTS, type HookEvent } from './core/hook-events.js';
export { DOCUMENTED_EXAMPLE_KEYS, SECRET_KINDS, findSecrets, redactSecrets, type FindSecretsOptions, type RedactResult, type SecretFinding, type SecretKind } from './core/redact.js';
export { loadSecretlintRules } from './core/secretlint-scan.js';
export {
  CortexError,
  ConflictError,
  GitError,
  InternalError,
  LockError,
  MemoryNotFoundError,
  NotInitializedError,
  ParseError,
  UsageError,
} from './errors.js';
export {
  MEMORY_STATUSES,
  MEMORY_TYPES,
  SCOPES,
  type Diagnostic,
  type Memory,
  type MemorySource,
  type MemoryStatus,
  type MemoryType,
  type Scope,
} from './core/memory.js';
export { parseMemory, renderMemory } from './core/memory-format.js';
export { DEFAULT_CONFIG, type CortexConfig } from './core/config.js';

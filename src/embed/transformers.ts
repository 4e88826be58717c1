/**
 * The real embedder: @huggingface/transformers feature extraction (mean pooling, L2 norm).
 *
 * The package is an optionalDependency and costs ~150 ms to import, so it is imported
 * dynamically here and only here; nothing on the keyword paths imports this module's
 * dependency. Every failure becomes an `EmbedUnavailableError`, which callers turn into
 * keyword-only recall with a one-line notice.
 */
import { createRequire } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { EmbedUnavailableError, modelIdentity, type EmbedOptions, type Embedder } from './embedder.js';

export { EmbedUnavailableError } from './embedder.js';

const PACKAGE = '@huggingface/transformers';

export interface TransformersEmbedderOptions extends Pick<EmbedOptions, 'model' | 'dtype' | 'modelDir'> {
  /** Texts per inference call: bounds the padded tensor size and the peak memory. */
  batchSize: number;
  /** Called after each inference batch of an `embed` call. */
  onProgress?: ((progress: { phase: 'embed'; done: number; total: number }) => void) | undefined;
  /** Module to import; only tests and forks change it. */
  packageName: string;
}

export const DEFAULT_TRANSFORMERS_EMBEDDER: TransformersEmbedderOptions = {
  model: 'Xenova/all-MiniLM-L6-v2',
  dtype: 'q8',
  modelDir: undefined,
  batchSize: 32,
  onProgress: undefined,
  packageName: PACKAGE,
};

/** The ONNX file name suffix per dtype, as the library picks it (`onnx/model<suffix>.onnx`). */
const DTYPE_SUFFIX: Record<string, string> = {
  fp32: '',
  fp16: '_fp16',
  int8: '_int8',
  uint8: '_uint8',
  q8: '_quantized',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
  q2: '_q2',
  q2f16: '_q2f16',
  q1: '_q1',
  q1f16: '_q1f16',
};
const DTYPES = ['auto', ...Object.keys(DTYPE_SUFFIX)];

/** The slice of the library's surface used here, typed locally so the optional package is not needed to compile. */
interface Tensor {
  dims: number[];
  data: ArrayLike<number>;
}
interface FeatureExtractor {
  (texts: string[], options: { pooling: 'mean'; normalize: boolean }): Promise<Tensor>;
  dispose?: () => Promise<unknown>;
}
interface TransformersModule {
  pipeline: (task: 'feature-extraction', model: string, options: { dtype: string }) => Promise<FeatureExtractor>;
  env: { localModelPath: string; allowRemoteModels: boolean; allowLocalModels: boolean; logLevel: number };
  LogLevel?: { ERROR: number };
}

/** Library settings as imported, so a load without `modelDir` after one with it gets the download path back. */
let pristine: Pick<TransformersModule['env'], 'localModelPath' | 'allowRemoteModels' | 'allowLocalModels'> | undefined;
/** `env` is process-global: loads are serialised so two model dirs cannot interleave. */
let loadQueue: Promise<unknown> = Promise.resolve();

function oneLine(value: unknown, max = 200): string {
  const text = (value instanceof Error ? value.message : String(value)).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function importTransformers(packageName: string): Promise<TransformersModule> {
  try {
    return (await import(packageName)) as TransformersModule;
  } catch (err) {
    let installed = true;
    try {
      createRequire(import.meta.url).resolve(packageName);
    } catch {
      installed = false;
    }
    if (!installed) {
      throw new EmbedUnavailableError(`${packageName} is not installed (install without --omit=optional)`, {
        hint: 'Run `npm install` without --omit=optional (offline: ONNXRUNTIME_NODE_INSTALL=skip), or set CORTEX_EMBED=0 for keyword-only recall.',
        cause: err,
      });
    }
    // Installed but unloadable: usually onnxruntime-node's native binary is missing.
    throw new EmbedUnavailableError(`${packageName} failed to load: ${oneLine(err)}`, {
      hint: 'Reinstall dependencies with `npm install` (onnxruntime-node ships the CPU binaries), or set CORTEX_EMBED=0.',
      cause: err,
    });
  }
}

/**
 * After a failed local load, finds the first missing or unreadable file so the message
 * names it, instead of relaying whichever library error surfaced first.
 */
async function diagnoseLocalModel(modelDir: string, model: string, dtype: string, cause: unknown): Promise<EmbedUnavailableError> {
  const root = path.join(modelDir, model);
  const fixHint = `Put the model files (config.json, tokenizer.json, tokenizer_config.json, onnx/model${DTYPE_SUFFIX[dtype] ?? ''}.onnx) under ${root}, point CORTEX_MODEL_DIR elsewhere, or unset it to download ${model}.`;
  const jsonFiles = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
  for (const name of jsonFiles) {
    const file = path.join(root, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      if (name === 'tokenizer_config.json') continue; // optional for some tokenizers
      return new EmbedUnavailableError(`model file not found: ${file} (CORTEX_MODEL_DIR=${modelDir})`, { hint: fixHint, cause, data: { file } });
    }
    try {
      JSON.parse(text);
    } catch {
      return new EmbedUnavailableError(`broken model file ${file}: not valid JSON`, {
        hint: `Replace ${file} with a good copy of ${model}, or unset CORTEX_MODEL_DIR to download the model.`,
        cause,
        data: { file },
      });
    }
  }
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix !== undefined) {
    const onnx = path.join(root, 'onnx', `model${suffix}.onnx`);
    if (!(await isFile(onnx))) {
      return new EmbedUnavailableError(`model file not found: ${onnx} (dtype ${dtype}; CORTEX_MODEL_DIR=${modelDir})`, {
        hint: `Add onnx/model${suffix}.onnx to ${root}, or set CORTEX_EMBED_DTYPE to a dtype whose file is there.`,
        cause,
        data: { file: onnx },
      });
    }
    // Everything else checked out, so the ONNX file itself is what the runtime rejected.
    return new EmbedUnavailableError(`broken model file ${onnx}: the ONNX runtime cannot load it`, {
      hint: `Replace ${onnx} with a good copy of ${model}, or unset CORTEX_MODEL_DIR to download the model.`,
      cause,
      data: { file: onnx },
    });
  }
  return new EmbedUnavailableError(`cannot load model ${model} from ${modelDir}: ${oneLine(cause, 120)}`, { hint: fixHint, cause });
}

async function createPipeline(lib: TransformersModule, options: TransformersEmbedderOptions): Promise<FeatureExtractor> {
  const { model, dtype } = options;
  pristine ??= {
    localModelPath: lib.env.localModelPath,
    allowRemoteModels: lib.env.allowRemoteModels,
    allowLocalModels: lib.env.allowLocalModels,
  };
  // Library warnings go to the console (and at INFO level to stdout); `--json` needs a clean stdout.
  lib.env.logLevel = lib.LogLevel?.ERROR ?? 40;
  const modelDir = options.modelDir === undefined ? undefined : path.resolve(options.modelDir);
  if (modelDir === undefined) {
    Object.assign(lib.env, pristine);
  } else {
    const dirStat = await stat(modelDir).catch(() => undefined);
    if (!dirStat?.isDirectory()) {
      throw new EmbedUnavailableError(`model directory not found: ${modelDir} (CORTEX_MODEL_DIR)`, {
        hint: `Create ${modelDir} with ${model}/ inside it, set CORTEX_MODEL_DIR to an existing model directory, or unset it to download the model.`,
        data: { modelDir },
      });
    }
    lib.env.localModelPath = modelDir;
    lib.env.allowRemoteModels = false;
    lib.env.allowLocalModels = true;
  }
  try {
    return await lib.pipeline('feature-extraction', model, { dtype });
  } catch (err) {
    if (modelDir !== undefined) throw await diagnoseLocalModel(modelDir, model, dtype, err);
    throw new EmbedUnavailableError(`cannot load embedding model ${model}: ${oneLine(err, 160)}`, {
      hint: 'Connect to the network once (the model is cached after the first download), or set CORTEX_MODEL_DIR to a local copy.',
      cause: err,
    });
  }
}

function splitRows(out: Tensor, expected: number): Float32Array[] {
  const [rows, dims] = out.dims;
  if (out.dims.length !== 2 || rows !== expected || dims === undefined || dims <= 0) {
    throw new EmbedUnavailableError(`the model returned a tensor of shape [${out.dims.join(', ')}], expected [${expected}, dims]`, {
      hint: 'Use a sentence-embedding (feature-extraction) model such as Xenova/all-MiniLM-L6-v2.',
    });
  }
  const data = out.data instanceof Float32Array ? out.data : Float32Array.from(out.data);
  const vectors: Float32Array[] = [];
  // Copies, not views: a view would pin the whole batch buffer for as long as one vector lives.
  for (let r = 0; r < rows; r++) vectors.push(data.slice(r * dims, (r + 1) * dims));
  return vectors;
}

/**
 * Loads a sentence-embedding model through @huggingface/transformers (imported lazily).
 * With `modelDir`, the model id is resolved inside that directory and nothing is
 * downloaded; without it, the library downloads to its cache on first use.
 * Runs one probe inference so `dims` is known (and a model that loads but cannot run
 * fails here, not in the middle of recall).
 *
 * @throws EmbedUnavailableError — package missing, model directory or file missing, broken model file.
 * @example
 * const embedder = await loadTransformersEmbedder({ modelDir: '/work/shared/models', model: 'test/tiny-random-static', dtype: 'fp32' })
 * embedder.dims // 32
 * const [vector] = await embedder.embed(['[decision] Use SQLite'])
 */
export async function loadTransformersEmbedder(options: Partial<TransformersEmbedderOptions> = {}): Promise<Embedder> {
  const opts = { ...DEFAULT_TRANSFORMERS_EMBEDDER, ...options };
  if (!DTYPES.includes(opts.dtype)) {
    throw new EmbedUnavailableError(`unknown embedding dtype "${opts.dtype}" (CORTEX_EMBED_DTYPE)`, {
      hint: `Use one of: ${DTYPES.join(', ')}.`,
    });
  }
  if (!Number.isInteger(opts.batchSize) || opts.batchSize < 1) {
    throw new RangeError(`batchSize must be a positive integer, got ${opts.batchSize}`);
  }
  const lib = await importTransformers(opts.packageName);
  const load = loadQueue.then(() => createPipeline(lib, opts));
  loadQueue = load.catch(() => undefined);
  const extractor = await load;

  const run = async (texts: string[]): Promise<Float32Array[]> => {
    try {
      return splitRows(await extractor(texts, { pooling: 'mean', normalize: true }), texts.length);
    } catch (err) {
      if (err instanceof EmbedUnavailableError) throw err;
      throw new EmbedUnavailableError(`embedding with ${opts.model} failed: ${oneLine(err, 160)}`, {
        hint: 'Check the model files, or set CORTEX_EMBED=0 for keyword-only recall.',
        cause: err,
      });
    }
  };

  let dims: number;
  try {
    const [probe] = await run(['probe']);
    dims = probe?.length ?? 0;
  } catch (err) {
    // Loaded but cannot run (wrong architecture, bad graph): `run` already named the model and the cause.
    await extractor.dispose?.().catch(() => undefined);
    throw err;
  }

  let disposed = false;
  return {
    // dtype is part of the identity: q8 and fp32 vectors of one model differ.
    model: modelIdentity(opts),
    dims,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (disposed) throw new EmbedUnavailableError('the embedder was disposed', { hint: 'Load a new embedder.' });
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += opts.batchSize) {
        vectors.push(...(await run(texts.slice(i, i + opts.batchSize))));
        opts.onProgress?.({ phase: 'embed', done: vectors.length, total: texts.length });
      }
      return vectors;
    },
    async dispose(): Promise<void> {
      if (disposed) return;
      disposed = true;
      await extractor.dispose?.();
    },
  };
}

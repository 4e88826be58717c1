var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res) => function __init() {
  return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// dist/errors.js
function isErrnoCode(err, code2) {
  return typeof err === "object" && err !== null && err.code === code2;
}
var ISSUES_URL, CortexError, UsageError, NotInitializedError, MemoryNotFoundError, ParseError, GitError, ConflictError, LockError, InternalError;
var init_errors = __esm({
  "dist/errors.js"() {
    "use strict";
    ISSUES_URL = "https://github.com/cortex-memory/cortex/issues";
    CortexError = class extends Error {
      code;
      hint;
      data;
      constructor(code2, message, options = {}) {
        super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
        this.name = new.target.name;
        this.code = code2;
        this.hint = options.hint;
        this.data = options.data;
      }
      toJSON() {
        return {
          code: this.code,
          message: this.message,
          ...this.hint === void 0 ? {} : { hint: this.hint },
          ...this.data === void 0 ? {} : { data: this.data }
        };
      }
    };
    UsageError = class extends CortexError {
      constructor(message, options = {}) {
        super("USAGE", message, options);
      }
    };
    NotInitializedError = class extends CortexError {
      constructor(dir, options = {}) {
        super("NOT_INITIALIZED", `No .cortex/ directory found in ${dir} or any parent directory.`, {
          hint: "Run `cortex init` in the repository root.",
          ...options
        });
      }
    };
    MemoryNotFoundError = class extends CortexError {
      constructor(id, options = {}) {
        super("MEMORY_NOT_FOUND", `No memory with id "${id}".`, {
          hint: "Run `cortex list` or `cortex recall <query>` to find the id.",
          ...options,
          data: { id, ...options.data }
        });
      }
    };
    ParseError = class extends CortexError {
      constructor(message, options = {}) {
        super("PARSE", message, options);
      }
    };
    GitError = class extends CortexError {
      constructor(message, options = {}) {
        super("GIT", message, options);
      }
    };
    ConflictError = class extends CortexError {
      constructor(message, options = {}) {
        super("CONFLICT", message, options);
      }
    };
    LockError = class extends CortexError {
      constructor(message, options = {}) {
        super("LOCKED", message, options);
      }
    };
    InternalError = class extends CortexError {
      constructor(message, options = {}) {
        super("INTERNAL", message, options);
      }
    };
  }
});

// dist/core/memory.js
function slugify(text3, maxLength = MAX_SLUG_LENGTH) {
  const words = text3.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > maxLength) {
      if (slug === "")
        slug = word.slice(0, maxLength);
      break;
    }
    slug = next;
  }
  return slug === "" ? "memory" : slug;
}
function buildId(summary, randomBytes3) {
  const bytes = randomBytes3(ID_SUFFIX_LENGTH);
  let suffix = "";
  for (let i = 0; i < ID_SUFFIX_LENGTH; i++)
    suffix += BASE32_ALPHABET[(bytes[i] ?? 0) % 32];
  return `${slugify(summary)}-${suffix}`;
}
function checkIdSafety(id) {
  if (id.length === 0)
    return "is empty";
  if (id.includes("\0"))
    return "contains a NUL byte";
  if (id.includes("/") || id.includes("\\"))
    return "contains a path separator";
  if (id.includes(".."))
    return 'contains ".."';
  if (/^[a-zA-Z]:/.test(id))
    return "looks like an absolute path";
  if (WINDOWS_RESERVED.test(id))
    return "is a reserved device name";
  if (!SAFE_ID_PATTERN.test(id))
    return 'may only contain lower-case letters, digits, "-" and "_" (at most 100)';
  return void 0;
}
function isSafeId(id) {
  return checkIdSafety(id) === void 0;
}
function normalizeTag(tag) {
  return tag.trim().toLowerCase().replace(/\s+/g, "-");
}
function normalizeTags(tags) {
  const seen = /* @__PURE__ */ new Set();
  for (const tag of tags) {
    const t = normalizeTag(tag);
    if (t !== "")
      seen.add(t);
  }
  return [...seen];
}
function formatDate(date) {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
function isMemoryType(value2) {
  return typeof value2 === "string" && MEMORY_TYPES.includes(value2);
}
function isMemoryStatus(value2) {
  return typeof value2 === "string" && MEMORY_STATUSES.includes(value2);
}
var MEMORY_TYPES, MEMORY_STATUSES, SCOPES, SOURCE_KINDS, SOURCE_LAYERS, MEMORY_KEY_ORDER, SOURCE_KEY_ORDER, MAX_SLUG_LENGTH, ID_SUFFIX_LENGTH, MAX_SUMMARY_LENGTH, BASE32_ALPHABET, ID_PATTERN, SAFE_ID_PATTERN, WINDOWS_RESERVED, IMMORTAL_TYPES;
var init_memory = __esm({
  "dist/core/memory.js"() {
    "use strict";
    MEMORY_TYPES = [
      "architecture",
      "decision",
      "rejected",
      "pattern",
      "gotcha",
      "preference",
      "plan",
      "progress",
      "context",
      "code_description",
      "code"
    ];
    MEMORY_STATUSES = ["active", "archived", "superseded"];
    SCOPES = ["project", "global"];
    SOURCE_KINDS = ["extraction", "manual", "code_index", "import", "consolidation"];
    SOURCE_LAYERS = ["structural", "keyword", "self-report", "llm", "manual"];
    MEMORY_KEY_ORDER = [
      "id",
      "type",
      "summary",
      "scope",
      "priority",
      "confidence",
      "pinned",
      "status",
      "tags",
      "topic",
      "created",
      "updated",
      "source"
    ];
    SOURCE_KEY_ORDER = ["kind", "layer", "session", "branch", "commit", "files"];
    MAX_SLUG_LENGTH = 48;
    ID_SUFFIX_LENGTH = 6;
    MAX_SUMMARY_LENGTH = 300;
    BASE32_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
    ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*-[a-z2-7]{6}$/;
    SAFE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;
    WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
    IMMORTAL_TYPES = ["architecture", "decision", "rejected", "code_description", "code"];
  }
});

// dist/core/fast-frontmatter.js
function ytrim(s) {
  return s.replace(/^[ \t]+|[ \t]+$/g, "");
}
function plainScalar(raw) {
  const text3 = ytrim(raw);
  if (text3 !== raw.replace(/^[ \t]+/, "") || text3 === "")
    return text3 === "" ? null : FALLBACK;
  if (NULLS.has(text3))
    return null;
  if (TRUES.has(text3))
    return true;
  if (FALSES.has(text3))
    return false;
  if (SPECIAL.test(text3))
    return FALLBACK;
  if (INT.test(text3)) {
    const n = Number(text3);
    return Number.isSafeInteger(n) ? n : FALLBACK;
  }
  if (FLOAT.test(text3))
    return Number(text3);
  if (INDICATOR_START.test(text3) && !/^[-?:][^\s]/.test(text3))
    return FALLBACK;
  if (/^[-?:]\s/.test(text3) || text3 === "-" || text3 === "?" || text3 === ":")
    return FALLBACK;
  if (text3.includes(": ") || text3.includes(" #") || text3.endsWith(":") || text3.includes("	"))
    return FALLBACK;
  return text3;
}
function quotedScalar(raw) {
  const text3 = raw.replace(/[ \t]+$/, "");
  if (text3.length >= 2 && text3.startsWith("'") && text3.endsWith("'")) {
    const inner = text3.slice(1, -1);
    if (/(^|[^'])'(?!')/.test(inner.replace(/''/g, "")))
      return FALLBACK;
    return inner.replace(/''/g, "'");
  }
  if (text3.length >= 2 && text3.startsWith('"') && text3.endsWith('"')) {
    const inner = text3.slice(1, -1);
    if (inner.includes("\\") || inner.includes('"'))
      return FALLBACK;
    return inner;
  }
  return FALLBACK;
}
function scalar(raw) {
  const t = raw.replace(/^[ \t]+/, "");
  if (t.startsWith("'") || t.startsWith('"'))
    return quotedScalar(t);
  return plainScalar(raw);
}
function flowSeq(raw) {
  const text3 = ytrim(raw);
  if (!text3.startsWith("[") || !text3.endsWith("]"))
    return FALLBACK;
  const inner = ytrim(text3.slice(1, -1));
  if (inner === "")
    return [];
  if (/[[\]{}"']/.test(inner))
    return FALLBACK;
  const items = [];
  for (const part of inner.split(",")) {
    const item = ytrim(part);
    if (item === "")
      return FALLBACK;
    const value2 = plainScalar(item);
    if (value2 === FALLBACK || value2 === null)
      return FALLBACK;
    items.push(value2);
  }
  return items;
}
function value(raw) {
  const t = raw.replace(/^[ \t]+/, "");
  if (t.startsWith("["))
    return flowSeq(t);
  if (t.startsWith("{") || t.startsWith("|") || t.startsWith(">") || t.startsWith("&") || t.startsWith("*") || t.startsWith("!"))
    return FALLBACK;
  return scalar(raw);
}
function define(target, key, v) {
  if (Object.hasOwn(target, key) || key === "__proto__")
    return false;
  target[key] = v;
  return true;
}
function fastFrontmatter(text3) {
  if (!text3.startsWith("---\n"))
    return void 0;
  const close = text3.indexOf("\n---", 3);
  if (close === -1)
    return void 0;
  const after = close + 4;
  if (after < text3.length && text3[after] !== "\n")
    return void 0;
  const block2 = text3.slice(4, close);
  if (UNUSUAL.test(block2))
    return void 0;
  const body = after >= text3.length ? "" : text3.slice(after + 1);
  const data = {};
  const lines = /* @__PURE__ */ new Map();
  const rows = block2.split("\n");
  let nested;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (ytrim(row) === "" || row.includes("\r"))
      return void 0;
    if (row.startsWith(" ")) {
      const m2 = NESTED_KEY.exec(row);
      if (!m2 || !nested || m2[2] === void 0 || ytrim(m2[2]) === "")
        return void 0;
      const v = value(m2[2]);
      if (v === FALLBACK || !define(nested, m2[1], v))
        return void 0;
      continue;
    }
    const m = KEY.exec(row);
    if (!m)
      return void 0;
    const key = m[1];
    if (m[2] === void 0 || ytrim(m[2]) === "") {
      const next = rows[i + 1];
      if (next !== void 0 && next.startsWith("  ")) {
        nested = {};
        if (!define(data, key, nested))
          return void 0;
      } else {
        nested = void 0;
        if (m[2] !== void 0 && m[2] !== "")
          return void 0;
        if (!define(data, key, null))
          return void 0;
      }
    } else {
      nested = void 0;
      const v = value(m[2]);
      if (v === FALLBACK || !define(data, key, v))
        return void 0;
    }
    lines.set(key, i + 2);
  }
  return { data, lines, body };
}
var KEY, NESTED_KEY, INT, FLOAT, SPECIAL, NULLS, TRUES, FALSES, INDICATOR_START, FALLBACK, UNUSUAL;
var init_fast_frontmatter = __esm({
  "dist/core/fast-frontmatter.js"() {
    "use strict";
    KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
    NESTED_KEY = /^ {2}([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
    INT = /^[-+]?[0-9]+$/;
    FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
    SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0x[0-9a-fA-F]+|0o[0-7]+)$/;
    NULLS = /* @__PURE__ */ new Set(["null", "Null", "NULL", "~"]);
    TRUES = /* @__PURE__ */ new Set(["true", "True", "TRUE"]);
    FALSES = /* @__PURE__ */ new Set(["false", "False", "FALSE"]);
    INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
    FALLBACK = Symbol("fallback");
    UNUSUAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
  }
});

// dist/core/lazy.js
import { createRequire } from "node:module";
function loadYaml() {
  return yaml ??= require2("yaml");
}
function loadMatter() {
  return matter ??= require2("gray-matter");
}
function loadMarkdownParser() {
  if (markdown === void 0) {
    try {
      const { unified: unified3 } = require2("unified");
      const remarkParse2 = require2("remark-parse").default;
      markdown = unified3().use(remarkParse2);
    } catch {
      markdown = null;
    }
  }
  return markdown ?? void 0;
}
var require2, yaml, matter, markdown;
var init_lazy = __esm({
  "dist/core/lazy.js"() {
    "use strict";
    require2 = createRequire(import.meta.url);
  }
});

// dist/core/memory-format.js
function splitFrontmatter(text3) {
  const fast = fastFrontmatter(text3);
  if (fast)
    return fast;
  const lines = /* @__PURE__ */ new Map();
  let data = void 0;
  const { LineCounter, isMap, isScalar, parseDocument } = loadYaml();
  const parsed = loadMatter()(text3, {
    engines: {
      yaml: (source) => {
        const lineCounter = new LineCounter();
        const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
        const first = doc.errors[0];
        if (first) {
          const pos = lineCounter.linePos(first.pos[0]);
          throw new YamlFrontmatterError(first.message.split("\n")[0] ?? "invalid YAML", pos.line, pos.col);
        }
        if (isMap(doc.contents)) {
          for (const item of doc.contents.items) {
            if (isScalar(item.key) && item.key.range) {
              lines.set(String(item.key.value), lineCounter.linePos(item.key.range[0]).line);
            }
          }
        }
        data = doc.toJS();
        return {};
      }
    }
  });
  return { data, lines, body: parsed.content };
}
function setOwn(target, key, value2) {
  Object.defineProperty(target, key, { value: value2, enumerable: true, writable: true, configurable: true });
}
function normalizeBody(body) {
  return body.replace(/^(?:[ \t]*\n)+/, "").replace(/\s+$/, "");
}
function excerpt(text3, max = 60) {
  const oneLine5 = text3.replace(/\s+/g, " ").trim();
  return oneLine5.length > max ? `${oneLine5.slice(0, max)}\u2026` : oneLine5;
}
function parseMemory(text3, options = {}) {
  const file = options.file ?? "<memory>";
  const diagnostics = [];
  const normalized = text3.replace(/\r\n?/g, "\n").replace(/^\uFEFF/, "");
  const fail = (reason, ruleId, line, column, hint) => {
    diagnostics.push({ file, line, column, reason, ruleId, severity: "error", hint });
    return { memory: void 0, diagnostics };
  };
  if (!normalized.startsWith("---\n") && normalized.trim() !== "---") {
    return fail(`expected YAML frontmatter between "---" lines at the top, found "${excerpt(normalized)}"`, "frontmatter-missing", 1, 1, `Start the file with frontmatter, e.g. ${FRONTMATTER_EXAMPLE}`);
  }
  let fm;
  try {
    fm = splitFrontmatter(normalized);
  } catch (err2) {
    if (err2 instanceof YamlFrontmatterError) {
      const lineText = err2.line === void 0 ? "" : normalized.split("\n")[err2.line - 1] ?? "";
      return fail(`invalid YAML in frontmatter: ${err2.message}${lineText ? ` (found "${excerpt(lineText)}")` : ""}`, "yaml-syntax", err2.line, err2.column, 'Fix the YAML syntax (quote values containing ": " or "#"), then run `cortex lint`.');
    }
    return fail(`cannot read frontmatter: ${err2.message}`, "frontmatter-invalid", 1, 1);
  }
  const data = fm.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return fail("frontmatter must be a YAML mapping of keys to values", "frontmatter-shape", 2, 1, `Example: ${FRONTMATTER_EXAMPLE}`);
  }
  const raw = data;
  const lineOf = (key) => fm.lines.get(key);
  const err = (key, reason, hint, ruleId = "field-invalid") => diagnostics.push({ file, line: lineOf(key) ?? 1, reason, ruleId, severity: "error", hint });
  const warn = (key, reason, hint, ruleId = "field-invalid") => diagnostics.push({ file, line: lineOf(key) ?? 1, reason, ruleId, severity: "warning", hint });
  let usable = true;
  const id = raw.id;
  if (typeof id !== "string" || id === "") {
    err("id", 'missing or empty "id"', "Add `id: <file name without .md>`.", "id-missing");
    usable = false;
  } else {
    const unsafe = checkIdSafety(id);
    if (unsafe) {
      err("id", `id "${excerpt(id, 40)}" ${unsafe}`, "Use lower-case letters, digits and dashes, e.g. `chose-sqlite-k3f9qa`.", "id-unsafe");
      usable = false;
    } else if (options.expectedId !== void 0 && options.expectedId !== id) {
      err("id", `id "${id}" does not match the file name "${options.expectedId}.md"`, `Rename the file to ${id}.md or set id: ${options.expectedId}.`, "id-mismatch");
      usable = false;
    }
  }
  const type = raw.type;
  if (!MEMORY_TYPES.includes(type)) {
    err("type", type === void 0 ? 'missing "type"' : `unknown type "${excerpt(String(type), 30)}"`, `Use one of: ${MEMORY_TYPES.join(", ")}.`, "type-invalid");
    usable = false;
  }
  let summary = raw.summary;
  if (typeof summary === "number" || typeof summary === "boolean")
    summary = String(summary);
  if (typeof summary !== "string" || summary.trim() === "") {
    err("summary", 'missing or empty "summary"', "Add a one-line `summary:`.", "summary-missing");
    usable = false;
  } else if (summary.includes("\n")) {
    warn("summary", "summary spans several lines", "Keep the summary to one line; put details in the body.", "summary-multiline");
  }
  let scope = raw.scope ?? "project";
  if (!SCOPES.includes(scope)) {
    err("scope", `unknown scope "${excerpt(String(scope), 30)}"`, `Use one of: ${SCOPES.join(", ")}.`);
    scope = "project";
  }
  let priority = raw.priority ?? 5;
  if (typeof priority !== "number" || !Number.isInteger(priority) || priority < 1 || priority > 10) {
    err("priority", `priority must be an integer from 1 to 10, found ${excerpt(JSON.stringify(priority) ?? "", 20)}`, "Set `priority:` to 1..10 (5 is the default).");
    priority = 5;
  }
  let confidence = raw.confidence ?? 1;
  if (typeof confidence !== "number" || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
    err("confidence", `confidence must be a number from 0 to 1, found ${excerpt(JSON.stringify(confidence) ?? "", 20)}`, "Set `confidence:` to a value such as 0.8.");
    confidence = 1;
  }
  let pinned = raw.pinned ?? false;
  if (typeof pinned !== "boolean") {
    err("pinned", `pinned must be true or false, found ${excerpt(JSON.stringify(pinned) ?? "", 20)}`);
    pinned = false;
  }
  let status2 = raw.status ?? "active";
  if (!MEMORY_STATUSES.includes(status2)) {
    err("status", `unknown status "${excerpt(String(status2), 30)}"`, `Use one of: ${MEMORY_STATUSES.join(", ")}.`);
    status2 = "active";
  }
  let tags = [];
  const rawTags = raw.tags ?? [];
  if (typeof rawTags === "string") {
    tags = normalizeTags(rawTags.split(","));
  } else if (Array.isArray(rawTags) && rawTags.every((t) => typeof t === "string" || typeof t === "number")) {
    tags = normalizeTags(rawTags.map(String));
  } else {
    err("tags", "tags must be a list of words, e.g. [storage, sqlite]");
  }
  let topic;
  if (raw.topic !== void 0 && raw.topic !== null) {
    if (typeof raw.topic === "string" && raw.topic.trim() !== "")
      topic = raw.topic;
    else
      err("topic", "topic must be a non-empty string such as decision/storage-engine");
  }
  const date = (key) => {
    const value2 = raw[key];
    if (value2 === void 0 || value2 === null) {
      if (options.fallbackDate) {
        warn(key, `missing "${key}"`, `Add \`${key}: ${options.fallbackDate}\`.`, "date-missing");
        return options.fallbackDate;
      }
      err(key, `missing "${key}"`, "Add an ISO-8601 date such as 2026-11-21T10:00:00Z.", "date-missing");
      return "1970-01-01T00:00:00Z";
    }
    const text4 = value2 instanceof Date ? value2.toISOString() : String(value2);
    if (!DATE_PATTERN.test(text4) || Number.isNaN(Date.parse(text4))) {
      err(key, `${key} is not an ISO-8601 date: "${excerpt(text4, 30)}"`, "Use a date such as 2026-11-21T10:00:00Z.", "date-invalid");
      return options.fallbackDate ?? "1970-01-01T00:00:00Z";
    }
    return text4;
  };
  const created = date("created");
  const updated = date("updated");
  const source = parseSource(raw.source, (reason, hint) => err("source", reason, hint));
  const extra = {};
  for (const key of Object.keys(raw)) {
    if (!MEMORY_KEY_ORDER.includes(key))
      setOwn(extra, key, raw[key]);
  }
  if (!usable)
    return { memory: void 0, diagnostics };
  const memory = {
    id,
    type,
    summary: summary.trim(),
    scope,
    priority,
    confidence,
    pinned,
    status: status2,
    tags,
    ...topic === void 0 ? {} : { topic },
    created,
    updated,
    source,
    body: normalizeBody(fm.body),
    extra
  };
  return { memory, diagnostics };
}
function parseSource(raw, report) {
  if (raw === void 0 || raw === null)
    return { kind: "manual" };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    report("source must be a mapping, e.g. `source:\\n  kind: manual`");
    return { kind: "manual" };
  }
  const r = raw;
  const source = { kind: "manual" };
  if (r.kind !== void 0) {
    if (SOURCE_KINDS.includes(r.kind))
      source.kind = r.kind;
    else
      report(`unknown source.kind "${String(r.kind)}"`, `Use one of: ${SOURCE_KINDS.join(", ")}.`);
  }
  if (r.layer !== void 0 && r.layer !== null) {
    if (SOURCE_LAYERS.includes(r.layer))
      source.layer = r.layer;
    else
      report(`unknown source.layer "${String(r.layer)}"`, `Use one of: ${SOURCE_LAYERS.join(", ")}.`);
  }
  for (const key of ["session", "branch", "commit"]) {
    const value2 = r[key];
    if (value2 === void 0 || value2 === null)
      continue;
    if (typeof value2 === "string" || typeof value2 === "number")
      source[key] = String(value2);
    else
      report(`source.${key} must be a string`);
  }
  if (r.files !== void 0 && r.files !== null) {
    if (Array.isArray(r.files) && r.files.every((f) => typeof f === "string"))
      source.files = [...r.files];
    else
      report("source.files must be a list of paths");
  }
  const extra = {};
  for (const key of Object.keys(r)) {
    if (!SOURCE_KEY_ORDER.includes(key))
      setOwn(extra, key, r[key]);
  }
  if (Object.keys(extra).length > 0)
    source.extra = extra;
  return source;
}
function memoryFrontmatter(memory) {
  const source = { kind: memory.source.kind };
  for (const key of SOURCE_KEY_ORDER) {
    if (key === "kind")
      continue;
    const value2 = memory.source[key];
    if (value2 !== void 0)
      source[key] = Array.isArray(value2) ? [...value2] : value2;
  }
  for (const [key, value2] of Object.entries(memory.source.extra ?? {})) {
    if (!Object.hasOwn(source, key))
      setOwn(source, key, value2);
  }
  const fm = {
    id: memory.id,
    type: memory.type,
    summary: memory.summary,
    scope: memory.scope,
    priority: memory.priority,
    confidence: memory.confidence,
    pinned: memory.pinned,
    status: memory.status,
    tags: [...memory.tags]
  };
  if (memory.topic !== void 0)
    fm.topic = memory.topic;
  fm.created = memory.created;
  fm.updated = memory.updated;
  fm.source = source;
  for (const [key, value2] of Object.entries(memory.extra)) {
    if (!Object.hasOwn(fm, key))
      setOwn(fm, key, value2);
  }
  return fm;
}
function renderFrontmatterYaml(frontmatter) {
  const { Document, isMap, isScalar, isSeq } = loadYaml();
  const doc = new Document(frontmatter);
  const visit = (node2) => {
    if (isMap(node2))
      for (const item of node2.items)
        visit(item.value);
    else if (isSeq(node2)) {
      if (node2.items.every((item) => isScalar(item)))
        node2.flow = true;
      else
        for (const item of node2.items)
          visit(item);
    }
  };
  visit(doc.contents);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
function renderMemory(memory) {
  return renderFrontmatterFile(memoryFrontmatter(memory), memory.body);
}
function renderFrontmatterFile(frontmatter, body) {
  const text3 = normalizeBody(body);
  return `---
${renderFrontmatterYaml(frontmatter)}---
${text3 === "" ? "" : `${text3}
`}`;
}
var DATE_PATTERN, FRONTMATTER_EXAMPLE, YamlFrontmatterError;
var init_memory_format = __esm({
  "dist/core/memory-format.js"() {
    "use strict";
    init_fast_frontmatter();
    init_lazy();
    init_memory();
    DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
    FRONTMATTER_EXAMPLE = "---\\nid: chose-sqlite-k3f9qa\\ntype: decision\\nsummary: Chose SQLite\\n---\\nBody text.";
    YamlFrontmatterError = class extends Error {
      line;
      column;
      constructor(message, line, column) {
        super(message);
        this.line = line;
        this.column = column;
      }
    };
  }
});

// dist/store/paths.js
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
function tierPaths(cortexDir, cacheDir) {
  return {
    cortexDir,
    memoriesDir: join(cortexDir, "memories"),
    edgesDir: join(cortexDir, "edges"),
    configFile: join(cortexDir, "config.yaml"),
    cacheDir
  };
}
function projectPaths(root) {
  const abs = resolve(root);
  return { root: abs, ...tierPaths(join(abs, CORTEX_DIR), join(abs, CACHE_DIR)) };
}
function globalPaths(env = process.env) {
  const home = resolve(env.CORTEX_HOME || join(homedir(), ".cortex"));
  return tierPaths(home, join(home, CACHE_DIR));
}
function isDir(path3) {
  try {
    return statSync(path3).isDirectory();
  } catch {
    return false;
  }
}
function findProjectRoot(start, env = process.env) {
  const globalDir = globalPaths(env).cortexDir;
  let dir = resolve(start);
  for (; ; ) {
    const candidate = join(dir, CORTEX_DIR);
    if (candidate !== globalDir && isDir(candidate))
      return dir;
    if (existsSync(join(dir, ".git")))
      return void 0;
    const parent = dirname(dir);
    if (parent === dir)
      return void 0;
    dir = parent;
  }
}
function findGitRoot(start) {
  let dir = resolve(start);
  for (; ; ) {
    if (existsSync(join(dir, ".git")))
      return dir;
    const parent = dirname(dir);
    if (parent === dir)
      return void 0;
    dir = parent;
  }
}
function assertSafeId(id, what = "memory id") {
  const why = checkIdSafety(id);
  if (why !== void 0) {
    const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}\u2026` : id);
    throw new UsageError(`Invalid ${what} ${shown}: it ${why}.`, {
      hint: "Ids are lower-case words joined by dashes, e.g. chose-sqlite-over-postgres-k3f9qa; see `cortex list`."
    });
  }
  return id;
}
function memoryPath(paths, id) {
  return join(paths.memoriesDir, `${assertSafeId(id)}.md`);
}
var CORTEX_DIR, CACHE_DIR;
var init_paths = __esm({
  "dist/store/paths.js"() {
    "use strict";
    init_errors();
    init_memory();
    CORTEX_DIR = ".cortex";
    CACHE_DIR = ".memory";
  }
});

// dist/git/dirs.js
import * as fs from "node:fs";
import { join as join2 } from "node:path";
function gitDirOf(root) {
  const dotGit = join2(root, ".git");
  try {
    if (fs.statSync(dotGit).isFile()) {
      const line = fs.readFileSync(dotGit, "utf8").trim();
      const m = /^gitdir:\s*(.+)$/.exec(line);
      if (m)
        return m[1].startsWith("/") || /^[A-Za-z]:/.test(m[1]) ? m[1] : join2(root, m[1]);
    }
  } catch {
  }
  return dotGit;
}
function commonGitDirOf(root) {
  const gitDir = gitDirOf(root);
  try {
    const common = fs.readFileSync(join2(gitDir, "commondir"), "utf8").trim();
    return common.startsWith("/") ? common : join2(gitDir, common);
  } catch {
    return gitDir;
  }
}
var init_dirs = __esm({
  "dist/git/dirs.js"() {
    "use strict";
  }
});

// dist/git/head.js
var head_exports = {};
__export(head_exports, {
  readHead: () => readHead
});
import * as fs2 from "node:fs";
import git from "isomorphic-git";
async function readHead(dir) {
  const gitRoot = findGitRoot(dir);
  if (!gitRoot)
    return { isRepo: false, detached: false, unborn: false };
  let branch;
  try {
    branch = await git.currentBranch({ fs: fs2, dir: gitRoot, gitdir: gitDirOf(gitRoot), fullname: false }) ?? void 0;
  } catch {
    branch = void 0;
  }
  let commit2;
  try {
    commit2 = branch ? await git.resolveRef({ fs: fs2, dir: gitRoot, gitdir: commonGitDirOf(gitRoot), ref: `refs/heads/${branch}` }) : await git.resolveRef({ fs: fs2, dir: gitRoot, gitdir: gitDirOf(gitRoot), ref: "HEAD" });
  } catch {
    commit2 = void 0;
  }
  return {
    isRepo: true,
    gitRoot,
    branch,
    commit: commit2,
    detached: branch === void 0 && commit2 !== void 0,
    unborn: commit2 === void 0
  };
}
var init_head = __esm({
  "dist/git/head.js"() {
    "use strict";
    init_paths();
    init_dirs();
  }
});

// dist/core/projection.js
import remarkParse from "remark-parse";
import remarkStringify from "remark-stringify";
import { unified } from "unified";
function fragment(markdown2, headingShift = 0) {
  const tree = parser.parse(markdown2);
  const walk = (node2, contained) => {
    if (node2.type === "heading")
      node2.depth = Math.min(6, node2.depth + headingShift);
    if (node2.type === "paragraph" || node2.type === "heading" || node2.type === "tableCell") {
      const start = node2.children[0]?.position?.start.offset;
      const end = node2.children[node2.children.length - 1]?.position?.end.offset;
      if (start !== void 0 && end !== void 0) {
        const raw = markdown2.slice(start, end);
        if (!raw.includes("\n") || !contained && node2.type === "paragraph") {
          node2.children = [{ type: "text", value: raw, data: { raw } }];
          return;
        }
      }
    }
    if (node2.type === "text") {
      const start = node2.position?.start.offset;
      const end = node2.position?.end.offset;
      const raw = start === void 0 || end === void 0 ? void 0 : markdown2.slice(start, end);
      if (raw !== void 0 && !raw.includes("\n"))
        node2.data = { ...node2.data, raw };
    }
    if ("children" in node2) {
      const inner = contained || node2.type === "blockquote" || node2.type === "listItem";
      for (const child of node2.children)
        walk(child, inner);
    }
  };
  walk(tree, false);
  return tree.children;
}
function parseTemplate(template) {
  const header = [];
  const sections = [];
  for (const node2 of fragment(template)) {
    const current = sections[sections.length - 1];
    if (node2.type === "heading" && node2.depth === 2) {
      sections.push({ heading: node2, intro: [], types: [], empty: [] });
    } else if (node2.type === "html" && node2.value.trim().startsWith("<!--")) {
      const match = DIRECTIVE.exec(node2.value.trim());
      if (!match || !current)
        continue;
      if (match[1] === "types")
        current.types.push(...(match[2] ?? "").split(/[\s,]+/).filter(Boolean));
      else
        current.empty = fragment(match[2] ?? "");
    } else if (current) {
      current.intro.push(node2);
    } else {
      header.push(node2);
    }
  }
  return { header, sections };
}
function entrySortKey(memory) {
  return [memory.created.slice(0, 10), memory.id];
}
function headNodes(memory) {
  const heading = { type: "heading", depth: 3, children: [text(memory.summary)] };
  const id = { type: "html", value: `<!-- memory: ${memory.id} -->` };
  const facts = [entrySortKey(memory)[0], `priority ${memory.priority}`];
  if (memory.status !== "active")
    facts.push(memory.status);
  if (memory.pinned)
    facts.push("pinned");
  if (memory.tags.length > 0)
    facts.push(`tags: ${memory.tags.join(", ")}`);
  const meta = { type: "paragraph", children: [{ type: "emphasis", children: [text(facts.join(" \xB7 "))] }] };
  return [heading, id, meta];
}
function entryNodes(memory) {
  return [...headNodes(memory), ...memory.body.trim() === "" ? [] : fragment(memory.body, 3)];
}
function plainBody(body) {
  const blocks = [];
  let current = [];
  let kind;
  let previous;
  for (const line of body.split("\n")) {
    if (/^[ \t]*$/.test(line)) {
      if (current.length > 0)
        blocks.push(current.join("\n"));
      current = [];
      if (kind !== void 0)
        previous = kind;
      kind = void 0;
      continue;
    }
    const k = line.startsWith("- ") ? PLAIN_ITEM.test(line) ? "li" : void 0 : PLAIN_LINE.test(line) ? "p" : void 0;
    if (k === void 0 || kind !== void 0 && k !== kind)
      return void 0;
    if (kind === void 0 && k === "li" && previous === "li")
      return void 0;
    kind = k;
    current.push(line);
  }
  if (current.length > 0)
    blocks.push(current.join("\n"));
  return blocks.join("\n\n");
}
function renderEntry(memory, options = {}) {
  const plain = options.fastPath === false || memory.body.trim() === "" ? void 0 : plainBody(memory.body);
  const text3 = plain === void 0 ? stringifier.stringify({ type: "root", children: entryNodes(memory) }).replace(/\n+$/, "") : `${stringifier.stringify({ type: "root", children: headNodes(memory) }).replace(/\n+$/, "")}

${plain}`;
  return { id: memory.id, type: memory.type, status: memory.status, day: entrySortKey(memory)[0], text: text3 };
}
function block(nodes) {
  return nodes.length === 0 ? "" : stringifier.stringify({ type: "root", children: nodes }).replace(/\n+$/, "");
}
function projectionSkeleton(file, options = {}) {
  const templates = { ...DEFAULT_RENDER_PROJECTIONS.templates, ...options.templates };
  const template = templates[file] ?? DEFAULT_RENDER_PROJECTIONS.templates[file] ?? "";
  const key = `${file}\0${template}`;
  let skeleton = skeletons.get(key);
  if (!skeleton) {
    const { header, sections } = parseTemplate(template);
    skeleton = {
      prefix: block([{ type: "html", value: PROJECTION_MARKER }, ...header]),
      sections: sections.map((s) => ({
        heading: s.heading ? block([s.heading]) : "",
        head: block([...s.heading ? [s.heading] : [], ...s.intro]),
        empty: block(s.empty),
        types: s.types
      })),
      typed: sections.some((s) => s.types.length > 0),
      fallbackTypes: FALLBACK_TYPES[file]
    };
    skeletons.set(key, skeleton);
  }
  return skeleton;
}
function compareEntries(a, b) {
  if (a.day !== b.day)
    return a.day < b.day ? -1 : 1;
  if (a.id !== b.id)
    return a.id < b.id ? -1 : 1;
  return a.text === b.text ? 0 : a.text < b.text ? -1 : 1;
}
function renderProjectionEntries(file, entries, options = {}) {
  const o = { ...DEFAULT_RENDER_PROJECTIONS, ...options };
  const archive = new Set(o.archiveIds);
  const archived = (e) => e.status !== "active" || archive.has(e.id);
  const pick = {
    "decisions.md": (e) => !archived(e),
    "plan.md": (e) => e.status === "active",
    "decisions-archive.md": archived
  };
  const sorted = entries.filter(pick[file]).sort(compareEntries);
  const skeleton = projectionSkeleton(file, o);
  const blocks = [skeleton.prefix];
  if (!skeleton.typed) {
    blocks.push(...skeleton.sections.map((s) => s.head));
    blocks.push(...sorted.filter((e) => skeleton.fallbackTypes.includes(e.type)).map((e) => e.text));
  } else {
    for (const s of skeleton.sections) {
      const mine = sorted.filter((e) => s.types.includes(e.type));
      blocks.push(s.head);
      if (s.types.length > 0 && mine.length === 0)
        blocks.push(s.empty);
      blocks.push(...mine.map((e) => e.text));
    }
  }
  return `${blocks.filter((b) => b !== "").join("\n\n")}
`;
}
function renderProjection(file, memories, options = {}) {
  return renderProjectionEntries(file, memories.map((m) => renderEntry(m)), options);
}
function renderProjections(memories, options = {}) {
  return {
    "decisions.md": renderProjection("decisions.md", memories, options),
    "plan.md": renderProjection("plan.md", memories, options),
    "decisions-archive.md": renderProjection("decisions-archive.md", memories, options)
  };
}
function projectedTypes(options = {}) {
  const templates = { ...DEFAULT_RENDER_PROJECTIONS.templates, ...options.templates };
  const types = /* @__PURE__ */ new Set();
  for (const file of PROJECTION_FILES) {
    const typed = parseTemplate(templates[file] ?? "").sections.filter((s) => s.types.length > 0);
    for (const t of typed.length > 0 ? typed.flatMap((s) => s.types) : FALLBACK_TYPES[file])
      types.add(t);
  }
  return types;
}
function parseProjectionIds(text3) {
  return [...text3.replace(/\r\n?/g, "\n").matchAll(/^<!-- memory: (\S+) -->$/gm)].map((m) => m[1] ?? "");
}
function isProjectionFile(path3) {
  const parts = path3.replace(/\\/g, "/").split("/");
  const name = parts[parts.length - 1] ?? "";
  return parts[parts.length - 2] === ".cortex" && PROJECTION_FILES.includes(name);
}
var PROJECTION_FILES, PROJECTION_MARKER, DEFAULT_DECISIONS_TEMPLATE, DEFAULT_PLAN_TEMPLATE, DEFAULT_ARCHIVE_TEMPLATE, DEFAULT_RENDER_PROJECTIONS, FALLBACK_TYPES, parser, stringifier, DIRECTIVE, text, PLAIN_LINE, PLAIN_ITEM, skeletons;
var init_projection = __esm({
  "dist/core/projection.js"() {
    "use strict";
    PROJECTION_FILES = ["decisions.md", "plan.md", "decisions-archive.md"];
    PROJECTION_MARKER = "<!-- Generated by cortex project. Do not edit: edit .cortex/memories/ and run `cortex project`. -->";
    DEFAULT_DECISIONS_TEMPLATE = `<!--
Header of \`.cortex/decisions.md\`, which \`cortex project\` generates.
HTML comments here, like this one, are not copied. The "#" title and the paragraphs under it
open the file. Each "##" heading opens a section: its "types:" comment lists the memory types
it holds, its "empty:" comment the text shown when it has none. Entries are sorted oldest first.
-->
# Decisions

Decisions in force and approaches that were rejected, oldest first, generated from \`.cortex/memories/\`. Superseded, archived and long-unused ones are in [decisions-archive.md](decisions-archive.md).

## Decisions
<!-- types: decision -->
<!-- empty: No active decisions. -->

## Rejected approaches
<!-- types: rejected -->
<!-- empty: No rejected approaches. -->
`;
    DEFAULT_PLAN_TEMPLATE = `<!--
Header of \`.cortex/plan.md\`, which \`cortex project\` generates.
HTML comments here, like this one, are not copied. The "#" title and the paragraphs under it
open the file. Each "##" heading opens a section: its "types:" comment lists the memory types
it holds, its "empty:" comment the text shown when it has none. Entries are sorted oldest first.
-->
# Plan

The active plan and the progress recorded against it, oldest first, generated from \`.cortex/memories/\`.

## Active plan
<!-- types: plan -->
<!-- empty: No active plan. -->

## Progress
<!-- types: progress -->
<!-- empty: No progress recorded. -->
`;
    DEFAULT_ARCHIVE_TEMPLATE = `<!--
Header of \`.cortex/decisions-archive.md\`, which \`cortex project\` generates.
HTML comments here, like this one, are not copied. The "#" title and the paragraphs under it
open the file. Each "##" heading opens a section: its "types:" comment lists the memory types
it holds, its "empty:" comment the text shown when it has none. Entries are sorted oldest first.
-->
# Decisions archive

Decisions and rejected approaches that were superseded, archived, or are old and never recalled, so the briefing no longer carries them, oldest first. They stay searchable with \`cortex recall\`; the ones in force are in [decisions.md](decisions.md).

## Decisions
<!-- types: decision -->
<!-- empty: None. -->

## Rejected approaches
<!-- types: rejected -->
<!-- empty: None. -->
`;
    DEFAULT_RENDER_PROJECTIONS = {
      templates: {
        "decisions.md": DEFAULT_DECISIONS_TEMPLATE,
        "plan.md": DEFAULT_PLAN_TEMPLATE,
        "decisions-archive.md": DEFAULT_ARCHIVE_TEMPLATE
      },
      archiveIds: []
    };
    FALLBACK_TYPES = {
      "decisions.md": ["decision", "rejected"],
      "plan.md": ["plan", "progress"],
      "decisions-archive.md": ["decision", "rejected"]
    };
    parser = unified().use(remarkParse);
    stringifier = unified().use(remarkStringify, {
      bullet: "-",
      rule: "-",
      fences: true,
      listItemIndent: "one",
      handlers: {
        text(node2, parent, state, info) {
          const raw = node2.data?.raw;
          if (raw !== void 0)
            return raw;
          const siblings = parent && "children" in parent ? parent.children : [];
          const index = state.indexStack[state.indexStack.length - 1] ?? 0;
          return state.safe(node2.value, { ...info, afterNode: siblings[index + 1], beforeNode: siblings[index - 1] });
        }
      }
    });
    DIRECTIVE = /^<!--\s*(types|empty):\s*([\s\S]*?)\s*-->$/;
    text = (value2) => ({ type: "text", value: value2 });
    PLAIN_LINE = /^(?![0-9]+[.)](?:[ \t]|$))[\p{L}\p{N}("'][^\t\r]*?[^\s\\]$|^[\p{L}\p{N}]$/u;
    PLAIN_ITEM = /^- (?:\[[ xX]\] )?(?![0-9]+[.)](?:[ \t]|$))[\p{L}\p{N}("'][^\t\r]*?[^\s\\]$|^- [\p{L}\p{N}]$/u;
    skeletons = /* @__PURE__ */ new Map();
  }
});

// dist/git/oid.js
import { createHash } from "node:crypto";
function blobOid(content) {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}
var init_oid = __esm({
  "dist/git/oid.js"() {
    "use strict";
  }
});

// dist/git/repo.js
import * as fs3 from "node:fs";
import git2 from "isomorphic-git";
function gitReader(dir) {
  return { dir, gitdir: commonGitDirOf(dir), headGitdir: gitDirOf(dir), cache: {} };
}
async function resolveCommit(r, ref) {
  try {
    if (/^[0-9a-f]{4,40}$/i.test(ref)) {
      try {
        const oid2 = ref.length === 40 ? ref : await git2.expandOid({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid: ref, cache: r.cache });
        return await peel(r, oid2);
      } catch {
      }
    }
    const oid = ref === "HEAD" ? await resolveHead(r) : await git2.resolveRef({ fs: fs3, dir: r.dir, gitdir: r.gitdir, ref });
    return await peel(r, oid);
  } catch (err) {
    throw new GitError(`Unknown revision "${ref}".`, {
      hint: "Name a branch, tag or commit that exists here (`git branch -a` lists branches).",
      cause: err
    });
  }
}
async function resolveHead(r) {
  const branch = await git2.currentBranch({ fs: fs3, dir: r.dir, gitdir: r.headGitdir, fullname: true });
  if (branch)
    return git2.resolveRef({ fs: fs3, dir: r.dir, gitdir: r.gitdir, ref: branch });
  return git2.resolveRef({ fs: fs3, dir: r.dir, gitdir: r.headGitdir, ref: "HEAD" });
}
async function peel(r, oid) {
  const { type, object } = await git2.readObject({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid, cache: r.cache });
  if (type === "commit")
    return oid;
  if (type === "tag")
    return peel(r, object.object);
  throw new GitError(`${oid.slice(0, 12)} is a ${type}, not a commit.`);
}
async function listBranches(r) {
  return (await git2.listBranches({ fs: fs3, dir: r.dir, gitdir: r.gitdir })).sort();
}
async function listRemoteBranches(r) {
  const out = [];
  let remotes = [];
  try {
    remotes = await git2.listRemotes({ fs: fs3, dir: r.dir, gitdir: r.gitdir });
  } catch {
    return out;
  }
  for (const { remote } of remotes) {
    for (const b of await git2.listBranches({ fs: fs3, dir: r.dir, gitdir: r.gitdir, remote }).catch(() => [])) {
      if (b !== "HEAD")
        out.push(`${remote}/${b}`);
    }
  }
  return out.sort();
}
async function isAncestor(r, ancestor, descendant) {
  if (ancestor === descendant)
    return true;
  try {
    return await git2.isDescendent({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid: descendant, ancestor, depth: -1, cache: r.cache });
  } catch {
    return false;
  }
}
async function mergeBases(r, a, b) {
  return git2.findMergeBase({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oids: [a, b], cache: r.cache });
}
async function readConfig(r, path3) {
  try {
    const v = await git2.getConfig({ fs: fs3, dir: r.dir, gitdir: r.gitdir, path: path3 });
    return v === void 0 || v === null ? void 0 : String(v);
  } catch {
    return void 0;
  }
}
async function treeEntries(r, oid) {
  const { tree } = await git2.readTree({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid, cache: r.cache });
  return tree;
}
async function readCortexTree(r, commit2) {
  const out = { commit: commit2, memoriesTree: void 0, memories: /* @__PURE__ */ new Map(), edges: /* @__PURE__ */ new Map(), projections: /* @__PURE__ */ new Map() };
  const { commit: c } = await git2.readCommit({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid: commit2, cache: r.cache });
  const top = await treeEntries(r, c.tree);
  const cortex = top.find((e) => e.path === ".cortex" && e.type === "tree");
  if (!cortex)
    return out;
  for (const e of await treeEntries(r, cortex.oid)) {
    if (e.type === "blob" && PROJECTION_FILES.includes(e.path))
      out.projections.set(e.path, e.oid);
    if (e.type !== "tree" || e.path !== "memories" && e.path !== "edges")
      continue;
    if (e.path === "memories")
      out.memoriesTree = e.oid;
    for (const f of await treeEntries(r, e.oid)) {
      if (f.type !== "blob" || !f.path.endsWith(".md") || f.path.startsWith("."))
        continue;
      if (e.path === "memories")
        out.memories.set(f.path.slice(0, -3), f.oid);
      else
        out.edges.set(f.path, f.oid);
    }
  }
  return out;
}
async function readBlobText(r, oid) {
  const { blob } = await git2.readBlob({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid, cache: r.cache });
  return Buffer.from(blob).toString("utf8");
}
async function blobAt(r, commit2, path3, trees = /* @__PURE__ */ new Map()) {
  const { commit: c } = await git2.readCommit({ fs: fs3, dir: r.dir, gitdir: r.gitdir, oid: commit2, cache: r.cache });
  let oid = c.tree;
  const parts = path3.split("/").filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    let entries = trees.get(oid);
    if (!entries) {
      entries = new Map((await treeEntries(r, oid)).map((e) => [e.path, { oid: e.oid, type: e.type }]));
      trees.set(oid, entries);
    }
    const entry = entries.get(parts[i]);
    if (!entry)
      return null;
    if (i === parts.length - 1)
      return entry.type === "blob" ? entry.oid : null;
    if (entry.type !== "tree")
      return null;
    oid = entry.oid;
  }
  return null;
}
var init_repo = __esm({
  "dist/git/repo.js"() {
    "use strict";
    init_errors();
    init_projection();
    init_oid();
    init_dirs();
    init_dirs();
  }
});

// dist/core/fingerprint.js
function lineHash(line) {
  let a = 2166136261;
  let b = 2538058380 ^ line.length;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 1540483477);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 2246822507);
  a ^= a >>> 13;
  b ^= b >>> 16;
  b = Math.imul(b, 3266489909);
  b ^= b >>> 16;
  return [a >>> 0, b >>> 0];
}
function memoryLine(scope, id, links) {
  return links === "" ? `${scope}\0${id}` : `${scope}\0${id}\0${links}`;
}
function emptyFingerprint() {
  return { count: 0, a: 0, b: 0 };
}
function addLine(parts, line, sign = 1) {
  const [a, b] = lineHash(line);
  parts.count += sign;
  parts.a = parts.a + sign * a >>> 0;
  parts.b = parts.b + sign * b >>> 0;
}
function combineFingerprints(x, y) {
  return { count: x.count + y.count, a: x.a + y.a >>> 0, b: x.b + y.b >>> 0 };
}
function fingerprintText(parts) {
  return `${parts.count}-${parts.a.toString(16).padStart(8, "0")}-${parts.b.toString(16).padStart(8, "0")}`;
}
var init_fingerprint = __esm({
  "dist/core/fingerprint.js"() {
    "use strict";
  }
});

// dist/search/columns.js
function isSavedStrings(value2, rows) {
  const v = value2;
  if (typeof v !== "object" || v === null || typeof v.text !== "string" || !(v.ends instanceof Uint32Array) || v.ends.length !== rows)
    return false;
  let previous = 0;
  for (let i = 0; i < v.ends.length; i++) {
    if (v.ends[i] < previous)
      return false;
    previous = v.ends[i];
  }
  return previous === v.text.length;
}
function isSavedCodes(value2, rows) {
  const v = value2;
  if (typeof v !== "object" || v === null || !Array.isArray(v.values) || !v.values.every((s) => typeof s === "string"))
    return false;
  if (!(v.codes instanceof Uint32Array) || v.codes.length !== rows)
    return false;
  for (let i = 0; i < v.codes.length; i++)
    if (v.codes[i] >= v.values.length)
      return false;
  return true;
}
var StringColumn, CodeColumn;
var init_columns = __esm({
  "dist/search/columns.js"() {
    "use strict";
    StringColumn = class _StringColumn {
      text = "";
      ends = new Uint32Array(0);
      /** Values set since the load, by row (`undefined`: the loaded value stands). */
      changed = [];
      rows = 0;
      static fromSaved(saved) {
        const column = new _StringColumn();
        column.text = saved.text;
        column.ends = saved.ends;
        column.rows = saved.ends.length;
        return column;
      }
      /** The saved form of `values`. */
      static save(values) {
        const ends = new Uint32Array(values.length);
        let end = 0;
        for (let i = 0; i < values.length; i++)
          ends[i] = end += values[i].length;
        return { text: values.join(""), ends };
      }
      get length() {
        return this.rows;
      }
      at(row) {
        const value2 = this.changed[row];
        if (value2 !== void 0 || row >= this.ends.length)
          return value2 ?? "";
        return this.text.slice(row === 0 ? 0 : this.ends[row - 1], this.ends[row]);
      }
      /** True when row `row` holds `value`, without cutting the row's value out. */
      equals(row, value2) {
        const set = this.changed[row];
        if (set !== void 0 || row >= this.ends.length)
          return (set ?? "") === value2;
        const start = row === 0 ? 0 : this.ends[row - 1];
        return this.ends[row] - start === value2.length && this.text.startsWith(value2, start);
      }
      /** Sets row `row` (at most one past the last). */
      set(row, value2) {
        if (row > this.rows)
          throw new RangeError(`row ${row} is past the end (${this.rows})`);
        this.changed[row] = value2;
        if (row === this.rows)
          this.rows++;
      }
      /** The values of `rows`, saved. */
      saveRows(rows) {
        return _StringColumn.save(rows.map((r) => this.at(r)));
      }
    };
    CodeColumn = class _CodeColumn {
      values = [];
      codes = [];
      index;
      static fromSaved(saved) {
        const column = new _CodeColumn();
        column.values = saved.values;
        column.codes = saved.codes;
        return column;
      }
      get length() {
        return this.codes.length;
      }
      at(row) {
        return this.values[this.codes[row]] ?? "";
      }
      /** Sets row `row` (at most one past the last). */
      set(row, value2) {
        if (row > this.codes.length)
          throw new RangeError(`row ${row} is past the end (${this.codes.length})`);
        if (!this.index)
          this.index = new Map(this.values.map((v, i) => [v, i]));
        let code2 = this.index.get(value2);
        if (code2 === void 0) {
          code2 = this.values.length;
          this.values.push(value2);
          this.index.set(value2, code2);
        }
        if (row === this.codes.length && !Array.isArray(this.codes))
          this.codes = Array.from(this.codes);
        this.codes[row] = code2;
      }
      /** The values of `rows`, saved. */
      saveRows(rows) {
        const values = [];
        const recoded = /* @__PURE__ */ new Map();
        const codes = new Uint32Array(rows.length);
        rows.forEach((r, i) => {
          const old = this.codes[r];
          let code2 = recoded.get(old);
          if (code2 === void 0) {
            code2 = values.length;
            values.push(this.values[old]);
            recoded.set(old, code2);
          }
          codes[i] = code2;
        });
        return { values, codes };
      }
    };
  }
});

// dist/search/doc-table.js
function isSavedDocs(value2) {
  const v = value2;
  if (typeof v !== "object" || v === null || !Array.isArray(v.ids))
    return false;
  const n = v.ids.length;
  if (!(v.jsonEnds instanceof Uint32Array) || v.jsonEnds.length !== n)
    return false;
  if (!Array.isArray(v.fingerprint) || v.fingerprint.length !== 3 || v.fingerprint[0] !== n)
    return false;
  return isSavedCodes(v.types, n) && isSavedCodes(v.statuses, n) && isSavedCodes(v.scopes, n) && isSavedStrings(v.contentKeys, n) && isSavedStrings(v.topics, n) && isSavedStrings(v.links, n);
}
var DECODER, DocTable;
var init_doc_table = __esm({
  "dist/search/doc-table.js"() {
    "use strict";
    init_fingerprint();
    init_columns();
    DECODER = new TextDecoder();
    DocTable = class _DocTable {
      /** id → row; rows of deleted memories stay in the columns (id undefined) until saved. */
      rows = /* @__PURE__ */ new Map();
      ids = [];
      types = new CodeColumn();
      statuses = new CodeColumn();
      scopes = new CodeColumn();
      contentKeys = new StringColumn();
      topics = new StringColumn();
      links = new StringColumn();
      /** All records as loaded, as JSON, and where each loaded row's ends. */
      /** The loaded records as UTF-8 JSON, one after another (a view of the index file's bytes). */
      records = new Uint8Array(0);
      jsonEnds = new Uint32Array(0);
      /** Rows whose record was set since the table was loaded (its JSON is not in `records`). */
      fresh = /* @__PURE__ */ new Set();
      /** Parsed records, by row. */
      parsed = [];
      /** The fingerprint of the live rows, kept up to date by `set` and `delete`. */
      print = emptyFingerprint();
      /** A table from saved columns; throws when they are not (the caller rebuilds). */
      static fromSaved(saved, records) {
        if (!isSavedDocs(saved))
          throw new TypeError("not a saved doc table");
        const n = saved.ids.length;
        if ((n > 0 ? saved.jsonEnds[n - 1] : 0) !== records.length)
          throw new TypeError("the records do not line up with the doc table");
        const table = new _DocTable();
        table.ids = saved.ids;
        table.types = CodeColumn.fromSaved(saved.types);
        table.statuses = CodeColumn.fromSaved(saved.statuses);
        table.scopes = CodeColumn.fromSaved(saved.scopes);
        table.contentKeys = StringColumn.fromSaved(saved.contentKeys);
        table.topics = StringColumn.fromSaved(saved.topics);
        table.links = StringColumn.fromSaved(saved.links);
        table.records = records;
        table.jsonEnds = saved.jsonEnds;
        table.parsed = new Array(saved.ids.length);
        const [count2, a, b] = saved.fingerprint;
        table.print = { count: count2, a, b };
        for (let row = 0; row < saved.ids.length; row++)
          table.rows.set(saved.ids[row], row);
        return table;
      }
      /**
       * The live rows as columns, and their records' bytes (a loaded record is copied as it
       * is, without parsing it).
       */
      toSaved() {
        const rows = [...this.rows.values()];
        const parts = [];
        const ends = new Uint32Array(rows.length);
        let end = 0;
        rows.forEach((row, i) => {
          const record = this.recordBytes(row);
          parts.push(record);
          ends[i] = end += record.length;
        });
        const saved = {
          ids: rows.map((row) => this.ids[row]),
          types: this.types.saveRows(rows),
          statuses: this.statuses.saveRows(rows),
          scopes: this.scopes.saveRows(rows),
          contentKeys: this.contentKeys.saveRows(rows),
          topics: this.topics.saveRows(rows),
          links: this.links.saveRows(rows),
          jsonEnds: ends,
          fingerprint: [this.print.count, this.print.a, this.print.b]
        };
        return { saved, records: Buffer.concat(parts, end) };
      }
      get size() {
        return this.rows.size;
      }
      /**
       * The fingerprint of the memories' scopes, ids and `[[links]]` (see `memoryLine`),
       * without reading them: the graph cache's key.
       */
      fingerprint() {
        return { ...this.print };
      }
      lineAt(row) {
        return memoryLine(this.scopes.at(row), this.ids[row], this.links.at(row));
      }
      has(id) {
        return this.rows.has(id);
      }
      /** The memory's type, without parsing its record. */
      typeOf(id) {
        const row = this.rows.get(id);
        return row === void 0 ? void 0 : this.types.at(row);
      }
      facetsAt(row) {
        const facets = {
          id: this.ids[row],
          type: this.types.at(row),
          status: this.statuses.at(row),
          scope: this.scopes.at(row),
          contentKey: this.contentKeys.at(row)
        };
        const topic = this.topics.at(row);
        if (topic !== "")
          facets.topic = topic;
        const links = this.links.at(row);
        if (links !== "")
          facets.links = links.split(" ");
        return facets;
      }
      /** The unpacked fields of a memory, without parsing its record. */
      facets(id) {
        const row = this.rows.get(id);
        return row === void 0 ? void 0 : this.facetsAt(row);
      }
      /** Every memory's unpacked fields. */
      *allFacets() {
        for (const row of this.rows.values())
          yield this.facetsAt(row);
      }
      recordBytes(row) {
        if (this.fresh.has(row) || row >= this.jsonEnds.length)
          return Buffer.from(JSON.stringify(this.parsed[row]));
        return this.records.subarray(row === 0 ? 0 : this.jsonEnds[row - 1], this.jsonEnds[row]);
      }
      get(id) {
        const row = this.rows.get(id);
        if (row === void 0)
          return void 0;
        let doc = this.parsed[row];
        if (doc === void 0)
          doc = this.parsed[row] = JSON.parse(DECODER.decode(this.recordBytes(row)));
        return doc;
      }
      set(id, doc) {
        let row = this.rows.get(id);
        if (row === void 0) {
          row = this.ids.length;
          this.rows.set(id, row);
        } else {
          addLine(this.print, this.lineAt(row), -1);
        }
        this.ids[row] = id;
        this.types.set(row, doc.type);
        this.statuses.set(row, doc.status);
        this.scopes.set(row, doc.scope);
        this.contentKeys.set(row, doc.contentKey);
        this.topics.set(row, doc.topic ?? "");
        this.links.set(row, doc.links?.join(" ") ?? "");
        addLine(this.print, this.lineAt(row));
        this.fresh.add(row);
        this.parsed[row] = doc;
      }
      delete(id) {
        const row = this.rows.get(id);
        if (row === void 0)
          return false;
        addLine(this.print, this.lineAt(row), -1);
        this.rows.delete(id);
        this.ids[row] = void 0;
        this.parsed[row] = void 0;
        return true;
      }
      clear() {
        this.rows.clear();
        this.ids = [];
        this.types = new CodeColumn();
        this.statuses = new CodeColumn();
        this.scopes = new CodeColumn();
        this.contentKeys = new StringColumn();
        this.topics = new StringColumn();
        this.links = new StringColumn();
        this.records = new Uint8Array(0);
        this.jsonEnds = new Uint32Array(0);
        this.fresh.clear();
        this.parsed = [];
        this.print = emptyFingerprint();
      }
      *keys() {
        yield* this.rows.keys();
      }
      *values() {
        for (const id of this.rows.keys())
          yield this.get(id);
      }
      *entries() {
        for (const id of this.rows.keys())
          yield [id, this.get(id)];
      }
      [Symbol.iterator]() {
        return this.entries();
      }
      forEach(fn, thisArg) {
        for (const [id, doc] of this.entries())
          fn.call(thisArg, doc, id, this);
      }
    };
  }
});

// dist/core/text.js
import { stemmer } from "stemmer";
function tokenize(text3) {
  const out = [];
  for (const raw of text3.split(SPLIT)) {
    const word = raw.replace(/^'+|'+$/g, "");
    if (word !== "")
      out.push(word);
  }
  return out;
}
function stem(word) {
  let s = stemCache.get(word);
  if (s === void 0) {
    s = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stemCache.size > 2e5)
      stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}
function processTerm(word) {
  const parts = word.length > 3 && /[a-z][A-Z]/.test(word) ? splitCamel(word) : void 0;
  const folded = word.toLowerCase().replace(/'s$/, "").replace(/'/g, "");
  const lower = IRREGULAR_BASE.get(folded) ?? folded;
  const main = lower.length < 2 && !/\d/.test(lower) ? null : STOP_WORDS.has(lower) ? null : stem(lower);
  if (!parts)
    return main;
  const terms = /* @__PURE__ */ new Set();
  if (main)
    terms.add(main);
  for (const part of parts) {
    const p = part.toLowerCase();
    if (p.length >= 2 && !STOP_WORDS.has(p))
      terms.add(stem(p));
  }
  return terms.size === 0 ? null : [...terms];
}
function splitCamel(word) {
  return word.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
}
function analyze(text3) {
  const out = [];
  for (const word of tokenize(text3)) {
    const t = processTerm(word);
    if (t === null)
      continue;
    if (Array.isArray(t))
      out.push(...t);
    else
      out.push(t);
  }
  return out;
}
var STOP_WORDS, IRREGULAR_VERBS, IRREGULAR_BASE, SPLIT, stemCache;
var init_text = __esm({
  "dist/core/text.js"() {
    "use strict";
    STOP_WORDS = new Set("a about above after again against all am an and any are aren't as at be because been before being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then there there's these they they'd they'll they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves also just will shall may might must us ever".split(" "));
    IRREGULAR_VERBS = "arise arose arisen|awake awoke awoken|be was were been|beat beat beaten|become became become|begin began begun|bend bent|bet bet|bite bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|burn burnt|buy bought|catch caught|choose chose chosen|cling clung|come came come|cost cost|creep crept|cut cut|deal dealt|dig dug|do did done|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given|go went gone|grow grew grown|hang hung|have had|hear heard|hide hid hidden|hit hit|hold held|hurt hurt|keep kept|kneel knelt|know knew known|lead led|lean leant|leap leapt|learn learnt|leave left|lend lent|let let|light lit|lose lost|make made|mean meant|meet met|pay paid|put put|quit quit|read read|ride rode ridden|ring rang rung|run ran run|say said|see saw seen|seek sought|sell sold|send sent|set set|shake shook shaken|shine shone|shoot shot|show showed shown|shrink shrank shrunk|shut shut|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|split split|spread spread|spring sprang sprung|stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck stricken|strive strove striven|swear swore sworn|sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|throw threw thrown|understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|write wrote written|undergo underwent undergone|overcome overcame|withdraw withdrew withdrawn|rebuild rebuilt|rewrite rewrote rewritten|undo undid undone|upset upset|mislead misled|misunderstand misunderstood|outgrow outgrew outgrown|overhear overheard|oversee oversaw overseen|overtake overtook overtaken|withstand withstood|foresee foresaw foreseen|partake partook partaken|uphold upheld|broadcast broadcast|forecast forecast|sew sewed sewn|tread trod trodden";
    IRREGULAR_BASE = (() => {
      const map = /* @__PURE__ */ new Map();
      for (const group of IRREGULAR_VERBS.split("|")) {
        const [base, ...forms] = group.split(" ");
        for (const form of forms)
          if (base && form !== base && !map.has(form))
            map.set(form, base);
      }
      return map;
    })();
    SPLIT = /[^\p{L}\p{N}\p{M}']+/u;
    stemCache = /* @__PURE__ */ new Map();
  }
});

// dist/core/query.js
function termsOf(word) {
  const t = processTerm(word);
  return t === null ? [] : Array.isArray(t) ? t : [t];
}
function planQuery(query, options = {}) {
  const terms = [...new Set(analyze(query))];
  const own = new Set(terms);
  const expansions = /* @__PURE__ */ new Set();
  if (options.expand !== false) {
    for (const term of terms) {
      for (const g of GROUP_OF.get(term) ?? []) {
        for (const other of GROUPS[g] ?? [])
          if (!own.has(other))
            expansions.add(other);
      }
    }
  }
  const words = new Set(query.toLowerCase().split(/[^a-z]+/).filter(Boolean));
  const typeHints = [];
  for (const hint of HINTS) {
    if ([...hint.words].some((w) => words.has(w))) {
      for (const t of hint.types)
        if (!typeHints.includes(t))
          typeHints.push(t);
    }
  }
  const timeTerms = options.expand !== false && TEMPORAL_QUESTION.test(query) ? TIME_TERMS.filter((t) => !own.has(t) && !expansions.has(t)) : [];
  return { terms, expansions: [...expansions], timeTerms, typeHints };
}
function feedbackTerms(docs, options) {
  const { terms: count2, weight, minDocFreq } = { ...DEFAULT_FEEDBACK, ...options };
  const top = docs[0]?.score ?? 0;
  const weights = /* @__PURE__ */ new Map();
  if (top <= 0 || count2 <= 0)
    return weights;
  const idf = /* @__PURE__ */ new Map();
  for (const doc of docs) {
    const words = analyze(doc.text);
    if (words.length === 0)
      continue;
    const tf = /* @__PURE__ */ new Map();
    for (const w of words)
      tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [term, n] of tf) {
      if (options.exclude.has(term))
        continue;
      let w = idf.get(term);
      if (w === void 0) {
        const df = options.docFreq(term);
        w = df < minDocFreq ? 0 : Math.log(1 + (options.totalDocs - df + 0.5) / (df + 0.5));
        idf.set(term, w);
      }
      if (w > 0)
        weights.set(term, (weights.get(term) ?? 0) + n / words.length * (doc.score / top) * w);
    }
  }
  const best = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count2);
  const max = best[0]?.[1] ?? 0;
  return new Map(best.map(([term, v]) => [term, weight * v / max]));
}
var THESAURUS, TYPE_HINTS, TIME_WORDS, TEMPORAL_QUESTION, GROUPS, GROUP_OF, TIME_TERMS, HINTS, DEFAULT_FEEDBACK;
var init_query = __esm({
  "dist/core/query.js"() {
    "use strict";
    init_text();
    THESAURUS = [
      ["database", "db", "databases", "sqlite", "postgres", "postgresql", "mysql", "mariadb", "mongodb", "mongo", "datastore", "sql", "dynamodb"],
      ["choose", "chose", "chosen", "pick", "picked", "select", "selected", "decide", "decided", "decision", "opted", "adopt", "adopted", "prefer"],
      ["reject", "rejected", "discard", "discarded", "abandon", "abandoned", "avoid", "dropped", "ruled"],
      ["bug", "bugs", "defect", "crash", "crashes", "broken", "breaks", "failure", "regression", "fix", "fixed"],
      ["test", "tests", "testing", "spec", "specs", "vitest", "jest", "mocha", "pytest"],
      ["auth", "authentication", "authorization", "login", "signin", "oauth", "jwt", "sso", "credentials"],
      ["deploy", "deployment", "deploys", "release", "releases", "rollout", "ship", "shipping"],
      ["ci", "pipeline", "workflow", "github-actions", "actions", "jenkins"],
      ["config", "configuration", "settings", "options", "env", "environment"],
      ["slow", "slower", "performance", "latency", "perf", "speed", "fast", "faster", "bottleneck", "throughput"],
      ["cache", "caching", "cached", "memoize", "memoization"],
      ["queue", "queues", "jobs", "worker", "workers", "background"],
      ["api", "endpoint", "endpoints", "route", "routes", "rest", "graphql", "http"],
      ["frontend", "ui", "react", "vue", "svelte", "component", "components", "css"],
      ["lint", "linter", "eslint", "prettier", "formatting", "formatter"],
      ["docs", "documentation", "readme"],
      ["dependency", "dependencies", "package", "packages", "library", "libraries", "npm"],
      ["log", "logs", "logging", "logger"],
      ["container", "containers", "docker", "kubernetes", "k8s", "image"],
      ["typescript", "ts", "javascript", "js", "node", "nodejs"],
      ["timezone", "utc", "timestamp", "timestamps", "date", "dates"],
      ["secret", "secrets", "password", "passwords", "token", "tokens", "key", "keys", "credential"],
      ["style", "convention", "conventions", "guideline", "guidelines"],
      ["error", "errors", "exception", "exceptions", "throw", "throws"],
      ["migrate", "migration", "migrations", "schema"],
      ["lock", "locks", "locking", "mutex", "concurrency", "concurrent", "race"]
    ];
    TYPE_HINTS = [
      { words: ["decide", "decided", "decision", "chose", "choose", "pick", "picked", "why", "opted", "went"], types: ["decision", "rejected"] },
      { words: ["reject", "rejected", "ruled", "instead", "alternative", "alternatives", "tried"], types: ["rejected", "decision"] },
      { words: ["gotcha", "pitfall", "careful", "trap", "beware", "bug", "broke", "breaks", "flaky"], types: ["gotcha"] },
      { words: ["pattern", "convention", "usually", "idiom", "how"], types: ["pattern"] },
      { words: ["plan", "next", "todo", "remaining", "progress", "status", "done"], types: ["plan", "progress"] },
      { words: ["architecture", "structure", "layout", "design", "component", "components"], types: ["architecture"] },
      { words: ["prefer", "preference", "like", "likes", "want", "wants"], types: ["preference"] }
    ];
    TIME_WORDS = "yesterday today tomorrow last next week weekend month year ago recently since days monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december".split(" ");
    TEMPORAL_QUESTION = /\bwhen\b|\bwhat (?:year|date|month|day|time)\b|\bhow long ago\b/i;
    GROUPS = THESAURUS.map((group) => [...new Set(group.flatMap(termsOf))]);
    GROUP_OF = /* @__PURE__ */ new Map();
    GROUPS.forEach((group, i) => {
      for (const term of group)
        GROUP_OF.set(term, [...GROUP_OF.get(term) ?? [], i]);
    });
    TIME_TERMS = [...new Set(TIME_WORDS.flatMap(termsOf))];
    HINTS = TYPE_HINTS.map((h) => ({ words: new Set(h.words), types: h.types }));
    DEFAULT_FEEDBACK = { terms: 10, weight: 0.3, minDocFreq: 2 };
  }
});

// dist/store/atomic.js
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync as readFileSync2, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname as dirname2, join as join3 } from "node:path";
function tempPathFor(path3) {
  return join3(dirname2(path3), `.${basename(path3)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}
function writeFileAtomic(path3, data) {
  mkdirSync(dirname2(path3), { recursive: true });
  const tmp = tempPathFor(path3);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path3);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
function readFileIfExists(path3) {
  try {
    return readFileSync2(path3);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "ENOTDIR"))
      return void 0;
    throw err;
  }
}
function writeIfChanged(path3, data) {
  const existing = readFileIfExists(path3);
  if (existing !== void 0 && existing.toString("utf8") === data)
    return "unchanged";
  writeFileAtomic(path3, data);
  return existing === void 0 ? "created" : "updated";
}
var init_atomic = __esm({
  "dist/store/atomic.js"() {
    "use strict";
    init_errors();
  }
});

// dist/search/search-state.js
import { deserialize, serialize } from "node:v8";
import MiniSearch from "minisearch";
function idColumns(idToShortId) {
  const entries = [...idToShortId].sort((x, y) => x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);
  const ends = new Uint32Array(entries.length);
  let end = 0;
  entries.forEach(([id], i) => ends[i] = end += id.length);
  return { text: entries.map(([id]) => id).join(""), ends, shortIds: Uint32Array.from(entries, ([, shortId]) => shortId) };
}
function lengthColumns(fieldLength, fields, nextId) {
  const values = new Uint32Array(nextId * fields).fill(MISSING_LENGTH);
  const present = new Uint8Array(nextId);
  for (const [id, lengths] of fieldLength) {
    if (!Number.isInteger(id) || id < 0 || id >= nextId)
      return void 0;
    present[id] = 1;
    for (let f = 0; f < lengths.length; f++) {
      const v = lengths[f];
      if (v === void 0)
        continue;
      if (!Number.isInteger(v) || v < 0 || v >= MISSING_LENGTH)
        return void 0;
      values[id * fields + f] = v;
    }
  }
  return { fields, values, present };
}
function packMap(data) {
  let size = 1;
  for (const docs of data.values())
    size += 2 + 2 * docs.size;
  const out = new Uint32Array(size);
  let i = 0;
  out[i++] = data.size;
  for (const [fieldId, docs] of data) {
    out[i++] = fieldId;
    out[i++] = docs.size;
    for (const [doc, freq] of docs) {
      out[i++] = doc;
      out[i++] = freq;
    }
  }
  return out;
}
function analyzeDocument(doc, analyzer) {
  const fields = analyzer.fields.map((field) => {
    const value2 = doc[field];
    if (value2 == null)
      return null;
    const tokens = analyzer.tokenize(String(value2), field);
    const terms = [];
    for (const token2 of tokens) {
      const processed = analyzer.processTerm(token2, field);
      if (Array.isArray(processed))
        terms.push(...processed);
      else if (processed)
        terms.push(processed);
    }
    return { unique: new Set(tokens).size, terms };
  });
  return { id: String(doc[analyzer.idField]), fields };
}
function addAnalyzed(ms, doc, terms = /* @__PURE__ */ new Map()) {
  const m = ms;
  const fields = m._options?.fields;
  if (typeof m.addDocumentId !== "function" || typeof m.addFieldLength !== "function" || typeof m._index?.fetch !== "function" || !(m._idToShortId instanceof Map) || typeof m._documentCount !== "number" || typeof m._fieldIds !== "object" || !Array.isArray(fields) || fields.length !== doc.fields.length || (m._options?.storeFields?.length ?? 0) > 0) {
    return false;
  }
  if (m._idToShortId.has(doc.id))
    throw new Error(`MiniSearch: duplicate ID ${doc.id}`);
  const index = m._index;
  const shortId = m.addDocumentId.call(ms, doc.id);
  fields.forEach((field, i) => {
    const analyzed = doc.fields[i];
    if (!analyzed)
      return;
    const fieldId = m._fieldIds[field];
    m.addFieldLength.call(ms, shortId, fieldId, m._documentCount - 1, analyzed.unique);
    for (const term of analyzed.terms) {
      let data = terms.get(term);
      if (data === void 0)
        terms.set(term, data = index.fetch(term, () => /* @__PURE__ */ new Map()));
      if (data instanceof LazyTermData) {
        data.addPosting(fieldId, shortId);
        continue;
      }
      const docs = data.get(fieldId);
      if (docs === void 0)
        data.set(fieldId, /* @__PURE__ */ new Map([[shortId, 1]]));
      else
        docs.set(shortId, (docs.get(shortId) ?? 0) + 1);
    }
  });
  return true;
}
function isAnalyzedField(value2) {
  const f = value2;
  return f === null || typeof f === "object" && typeof f.unique === "number" && Array.isArray(f.terms) && f.terms.every((t) => typeof t === "string");
}
function isAnalyzedDoc(value2) {
  const d = value2;
  return typeof d === "object" && d !== null && typeof d.id === "string" && Array.isArray(d.fields) && d.fields.every(isAnalyzedField);
}
function hasInternals(ms) {
  const m = ms;
  return m._index?._tree instanceof Map && m._documentIds instanceof Map && m._idToShortId instanceof Map && m._fieldLength instanceof Map && typeof m._documentCount === "number" && FIELDS.every((f) => f in m);
}
function packTree(node2, out) {
  const copy = /* @__PURE__ */ new Map();
  for (const [key, value2] of node2) {
    if (key === LEAF) {
      copy.set(LEAF, value2 instanceof LazyTermData ? value2.packInto(out) : out.packMap(value2));
    } else {
      copy.set(key, packTree(value2, out));
    }
  }
  return copy;
}
function unpackTree(node2, packed) {
  for (const [key, value2] of node2) {
    if (key === LEAF) {
      if (typeof value2 !== "number" || value2 >= packed.length)
        return false;
      node2.set(LEAF, new LazyTermData(packed, value2));
    } else if (!(value2 instanceof Map) || !unpackTree(value2, packed)) {
      return false;
    }
  }
  return true;
}
function saveSearchState(ms) {
  if (hasInternals(ms)) {
    const m = ms;
    const fieldCount = Object.keys(m._fieldIds).length;
    const lengths = lengthColumns(m._fieldLength, fieldCount, m._nextId);
    if (lengths) {
      const fields = {};
      for (const f of PLAIN_FIELDS)
        fields[f] = m[f];
      const out = new PackedWriter();
      const tree = packTree(m._index._tree, out);
      const ids = idColumns(m._idToShortId);
      return serialize({ kind: "packed", documentCount: ms.documentCount, tree, postings: out.result(), fields, ids, lengths });
    }
  }
  return serialize({ kind: "json", documentCount: ms.documentCount, json: ms.toJSON() });
}
function loadSearchState(bytes, options) {
  let state;
  try {
    state = deserialize(bytes);
  } catch {
    return void 0;
  }
  if (typeof state !== "object" || state === null || typeof state.documentCount !== "number")
    return void 0;
  try {
    if (state.kind === "json") {
      const ms2 = MiniSearch.loadJS(state.json, options);
      return ms2.documentCount === state.documentCount ? ms2 : void 0;
    }
    if (state.kind !== "packed" || !(state.tree instanceof Map) || !(state.postings instanceof Uint32Array) || !state.fields)
      return void 0;
    const { ids, lengths } = state;
    if (!ids || typeof ids.text !== "string" || !(ids.ends instanceof Uint32Array) || !(ids.shortIds instanceof Uint32Array) || ids.ends.length !== ids.shortIds.length)
      return void 0;
    if (ids.ends.length > 0 && ids.ends[ids.ends.length - 1] !== ids.text.length)
      return void 0;
    if (!lengths || !(lengths.values instanceof Uint32Array) || !(lengths.present instanceof Uint8Array) || lengths.values.length !== lengths.fields * lengths.present.length)
      return void 0;
    if (!unpackTree(state.tree, state.postings))
      return void 0;
    const ms = new MiniSearch(options);
    if (!hasInternals(ms))
      return void 0;
    const m = ms;
    for (const f of PLAIN_FIELDS) {
      if (!(f in state.fields))
        return void 0;
      m[f] = state.fields[f];
    }
    if (lengths.present.length !== m._nextId || lengths.fields !== Object.keys(m._fieldIds).length)
      return void 0;
    m._idToShortId = new LazyIdMap(ids);
    m._fieldLength = new LazyFieldLengths(lengths);
    m._index._tree = state.tree;
    m._index._size = void 0;
    return ms.documentCount === state.documentCount ? ms : void 0;
  } catch {
    return void 0;
  }
}
function termDocCount(ms, term) {
  const index = ms._index;
  if (typeof index?.get !== "function")
    return void 0;
  const data = index.get(term);
  if (data === void 0)
    return 0;
  if (data instanceof LazyTermData)
    return data.maxFieldCount();
  let max = 0;
  for (const docs of data.values())
    max = Math.max(max, docs.size);
  return max;
}
var FIELDS, PLAIN_FIELDS, LEAF, MISSING_LENGTH, LazyIdMap, LazyFieldLengths, LazyTermData, PackedWriter;
var init_search_state = __esm({
  "dist/search/search-state.js"() {
    "use strict";
    FIELDS = [
      "_documentIds",
      "_idToShortId",
      "_fieldIds",
      "_fieldLength",
      "_avgFieldLength",
      "_nextId",
      "_storedFields",
      "_documentCount",
      "_dirtCount"
    ];
    PLAIN_FIELDS = FIELDS.filter((f) => f !== "_idToShortId" && f !== "_fieldLength");
    LEAF = "";
    MISSING_LENGTH = 4294967295;
    LazyIdMap = class extends Map {
      #text;
      #ends;
      #shortIds;
      /** Changes since the load: a short id, or `undefined` for a deleted id. */
      #changes = /* @__PURE__ */ new Map();
      constructor(saved) {
        super();
        this.#text = saved.text;
        this.#ends = saved.ends;
        this.#shortIds = saved.shortIds;
      }
      /** Compares `id` with saved id number `i` (-1, 0, 1), without slicing it out. */
      #compare(id, i) {
        const text3 = this.#text;
        const start = i === 0 ? 0 : this.#ends[i - 1];
        const length = this.#ends[i] - start;
        const n = Math.min(id.length, length);
        for (let k = 0; k < n; k++) {
          const d = id.charCodeAt(k) - text3.charCodeAt(start + k);
          if (d !== 0)
            return d < 0 ? -1 : 1;
        }
        return id.length === length ? 0 : id.length < length ? -1 : 1;
      }
      #lookup(id) {
        if (this.#changes.has(id))
          return this.#changes.get(id);
        let lo = 0;
        let hi = this.#ends.length - 1;
        while (lo <= hi) {
          const mid = lo + hi >>> 1;
          const c = this.#compare(id, mid);
          if (c === 0)
            return this.#shortIds[mid];
          if (c < 0)
            hi = mid - 1;
          else
            lo = mid + 1;
        }
        return void 0;
      }
      #build() {
        const text3 = this.#text;
        if (text3 === void 0)
          return;
        this.#text = void 0;
        let start = 0;
        for (let i = 0; i < this.#ends.length; i++) {
          const id = text3.slice(start, this.#ends[i]);
          start = this.#ends[i];
          if (!this.#changes.has(id))
            super.set(id, this.#shortIds[i]);
        }
        for (const [id, shortId] of this.#changes)
          if (shortId !== void 0)
            super.set(id, shortId);
        this.#changes.clear();
      }
      get size() {
        this.#build();
        return super.size;
      }
      get(id) {
        return this.#text === void 0 ? super.get(id) : this.#lookup(id);
      }
      has(id) {
        return this.#text === void 0 ? super.has(id) : this.#lookup(id) !== void 0;
      }
      set(id, shortId) {
        if (this.#text === void 0)
          super.set(id, shortId);
        else
          this.#changes.set(id, shortId);
        return this;
      }
      delete(id) {
        if (this.#text === void 0)
          return super.delete(id);
        const had = this.#lookup(id) !== void 0;
        this.#changes.set(id, void 0);
        return had;
      }
      clear() {
        this.#text = void 0;
        this.#changes.clear();
        super.clear();
      }
      forEach(fn, thisArg) {
        this.#build();
        super.forEach(fn, thisArg);
      }
      keys() {
        this.#build();
        return super.keys();
      }
      values() {
        this.#build();
        return super.values();
      }
      entries() {
        this.#build();
        return super.entries();
      }
      [Symbol.iterator]() {
        return this.entries();
      }
    };
    LazyFieldLengths = class extends Map {
      #values;
      #present;
      #fields;
      /** How many documents are still only in the columns. */
      #pending;
      constructor(saved) {
        super();
        this.#values = saved.values;
        this.#present = saved.present;
        this.#fields = saved.fields;
        let pending = 0;
        for (let i = 0; i < saved.present.length; i++)
          pending += saved.present[i];
        this.#pending = pending;
      }
      /** Moves document `id`'s lengths from the columns into the Map. */
      #take(id) {
        if (this.#values === void 0 || this.#present[id] !== 1)
          return void 0;
        this.#present[id] = 0;
        this.#pending--;
        const lengths = [];
        for (let f = 0, at = id * this.#fields; f < this.#fields; f++) {
          const v = this.#values[at + f];
          if (v !== MISSING_LENGTH)
            lengths[f] = v;
        }
        super.set(id, lengths);
        return lengths;
      }
      #takeAll() {
        if (this.#values === void 0)
          return;
        for (let id = 0; id < this.#present.length; id++)
          if (this.#present[id] === 1)
            this.#take(id);
        this.#values = void 0;
      }
      /**
       * The columns while documents are still only in them: a document `id` with
       * `present[id] === 1` has field `f`'s length at `values[id * fields + f]` ({@link MISSING_LENGTH}
       * when none); any other document's lengths are in the Map ({@link lengthAt}).
       */
      columns() {
        return this.#values === void 0 ? void 0 : { values: this.#values, present: this.#present, fields: this.#fields };
      }
      /** The length of field `fieldId` of document `id` (NaN when it has none), without making its array. */
      lengthAt(id, fieldId) {
        if (this.#values !== void 0 && this.#present[id] === 1) {
          const v = this.#values[id * this.#fields + fieldId];
          return v === MISSING_LENGTH ? Number.NaN : v;
        }
        return super.get(id)?.[fieldId] ?? Number.NaN;
      }
      get size() {
        return super.size + this.#pending;
      }
      get(id) {
        return super.get(id) ?? this.#take(id);
      }
      has(id) {
        return super.has(id) || this.#values !== void 0 && this.#present[id] === 1;
      }
      set(id, lengths) {
        if (this.#values !== void 0 && this.#present[id] === 1) {
          this.#present[id] = 0;
          this.#pending--;
        }
        return super.set(id, lengths);
      }
      delete(id) {
        let had = false;
        if (this.#values !== void 0 && this.#present[id] === 1) {
          this.#present[id] = 0;
          this.#pending--;
          had = true;
        }
        return super.delete(id) || had;
      }
      clear() {
        this.#values = void 0;
        this.#pending = 0;
        super.clear();
      }
      forEach(fn, thisArg) {
        this.#takeAll();
        super.forEach(fn, thisArg);
      }
      keys() {
        this.#takeAll();
        return super.keys();
      }
      values() {
        this.#takeAll();
        return super.values();
      }
      entries() {
        this.#takeAll();
        return super.entries();
      }
      [Symbol.iterator]() {
        return this.entries();
      }
    };
    LazyTermData = class extends Map {
      #packed;
      #offset;
      /** Postings added while packed (documents added after the load: never in `#packed`). */
      #added;
      /** `#added` packed, for readers; cleared when a posting is added. */
      #addedPacked;
      constructor(packed, offset) {
        super();
        this.#packed = packed;
        this.#offset = offset;
      }
      /**
       * The packed array and this term's offset in it, while still packed (a reader that walks
       * the postings itself need not unpack them), with the postings added since the load packed
       * the same way in `added` (their documents follow those of `packed`, in each field);
       * `undefined` once unpacked.
       */
      packedAt() {
        if (this.#packed === void 0)
          return void 0;
        if (this.#added !== void 0 && this.#addedPacked === void 0)
          this.#addedPacked = packMap(this.#added);
        return { packed: this.#packed, offset: this.#offset, added: this.#addedPacked };
      }
      /**
       * Counts one more occurrence of the term in `fieldId` of document `doc`, as MiniSearch's
       * `addTerm` does, without unpacking. Only for a document added after the load, whose
       * short id the packed postings cannot hold.
       */
      addPosting(fieldId, doc) {
        if (this.#packed === void 0) {
          let docs2 = super.get(fieldId);
          if (docs2 === void 0)
            super.set(fieldId, docs2 = /* @__PURE__ */ new Map());
          docs2.set(doc, (docs2.get(doc) ?? 0) + 1);
          return;
        }
        this.#added ??= /* @__PURE__ */ new Map();
        let docs = this.#added.get(fieldId);
        if (docs === void 0)
          this.#added.set(fieldId, docs = /* @__PURE__ */ new Map());
        docs.set(doc, (docs.get(doc) ?? 0) + 1);
        this.#addedPacked = void 0;
      }
      #unpack() {
        const p = this.#packed;
        if (p === void 0)
          return;
        this.#packed = void 0;
        let i = this.#offset;
        const fields = p[i++];
        for (let f = 0; f < fields; f++) {
          const fieldId = p[i++];
          const count2 = p[i++];
          const docs = /* @__PURE__ */ new Map();
          for (let d = 0; d < count2; d++, i += 2)
            docs.set(p[i], p[i + 1]);
          super.set(fieldId, docs);
        }
        const added = this.#added;
        this.#added = void 0;
        this.#addedPacked = void 0;
        if (added === void 0)
          return;
        for (const [fieldId, docs] of added) {
          const existing = super.get(fieldId);
          if (existing === void 0)
            super.set(fieldId, docs);
          else
            for (const [doc, freq] of docs)
              existing.set(doc, (existing.get(doc) ?? 0) + freq);
        }
      }
      /**
       * The largest number of documents listed under one field, read without unpacking
       * (discarded documents not yet swept out included, as in the unpacked Maps).
       */
      maxFieldCount() {
        const p = this.#packed;
        if (p === void 0) {
          let max2 = 0;
          for (const docs of super.values())
            max2 = Math.max(max2, docs.size);
          return max2;
        }
        let i = this.#offset;
        const fields = p[i++];
        let max = 0;
        for (let f = 0; f < fields; f++) {
          const count2 = p[i + 1];
          max = Math.max(max, count2 + (this.#added?.get(p[i])?.size ?? 0));
          i += 2 + 2 * count2;
        }
        if (this.#added)
          for (const docs of this.#added.values())
            max = Math.max(max, docs.size);
        return max;
      }
      /** Appends this term's packed form to `out` (copied as is while still packed). */
      packInto(out) {
        const p = this.#packed;
        if (p === void 0 || this.#added !== void 0)
          return out.packMap(this);
        let end = this.#offset;
        const fields = p[end++];
        for (let f = 0; f < fields; f++)
          end += 2 + 2 * p[end + 1];
        return out.copy(p, this.#offset, end);
      }
      get size() {
        this.#unpack();
        return super.size;
      }
      get(key) {
        this.#unpack();
        return super.get(key);
      }
      has(key) {
        this.#unpack();
        return super.has(key);
      }
      set(key, value2) {
        this.#unpack();
        return super.set(key, value2);
      }
      delete(key) {
        this.#unpack();
        return super.delete(key);
      }
      clear() {
        this.#packed = void 0;
        this.#added = void 0;
        this.#addedPacked = void 0;
        super.clear();
      }
      forEach(fn, thisArg) {
        this.#unpack();
        super.forEach(fn, thisArg);
      }
      keys() {
        this.#unpack();
        return super.keys();
      }
      values() {
        this.#unpack();
        return super.values();
      }
      entries() {
        this.#unpack();
        return super.entries();
      }
      [Symbol.iterator]() {
        return this.entries();
      }
    };
    PackedWriter = class {
      buf = new Uint32Array(1 << 16);
      length = 0;
      reserve(n) {
        if (this.length + n <= this.buf.length)
          return;
        let size = this.buf.length * 2;
        while (size < this.length + n)
          size *= 2;
        const next = new Uint32Array(size);
        next.set(this.buf.subarray(0, this.length));
        this.buf = next;
      }
      copy(from, start, end) {
        const offset = this.length;
        this.reserve(end - start);
        this.buf.set(from.subarray(start, end), offset);
        this.length += end - start;
        return offset;
      }
      packMap(data) {
        const offset = this.length;
        let n = 1;
        for (const docs of data.values())
          n += 2 + 2 * docs.size;
        this.reserve(n);
        const b = this.buf;
        let i = this.length;
        b[i++] = data.size;
        for (const [fieldId, docs] of data) {
          b[i++] = fieldId;
          b[i++] = docs.size;
          for (const [docId, freq] of docs) {
            b[i++] = docId;
            b[i++] = freq;
          }
        }
        this.length = i;
        return offset;
      }
      result() {
        return this.buf.slice(0, this.length);
      }
    };
  }
});

// dist/search/packed-search.js
function internalsOf(ms) {
  const m = ms;
  const index = m._index;
  if (!index || typeof index.get !== "function" || typeof index.atPrefix !== "function" || typeof index.fuzzyGet !== "function" || !(m._documentIds instanceof Map) || !(m._fieldLength instanceof Map) || typeof m._fieldIds !== "object" || !Array.isArray(m._avgFieldLength) || typeof m._documentCount !== "number" || typeof m._dirtCount !== "number" || typeof m._nextId !== "number" || !Array.isArray(m._options?.fields)) {
    return void 0;
  }
  return m;
}
function liveDocuments(m) {
  const key = `${m._nextId}/${m._documentCount}/${m._dirtCount}`;
  const cached = liveCache.get(m);
  if (cached?.key === key)
    return cached.live;
  const live = new Uint8Array(m._nextId);
  for (const doc of m._documentIds.keys())
    live[doc] = 1;
  liveCache.set(m, { key, live });
  return live;
}
function popcount(word) {
  let v = word - (word >>> 1 & 1431655765);
  v = (v & 858993459) + (v >>> 2 & 858993459);
  return (v + (v >>> 4) & 252645135) * 16843009 >>> 24;
}
function maskOf(values) {
  const mask = new Uint32Array((Math.max(-1, ...values) >>> 5) + 1);
  for (const v of values)
    mask[v >>> 5] = mask[v >>> 5] | 1 << (v & 31);
  return mask;
}
function searchPacked(ms, specs, options) {
  const m = internalsOf(ms);
  if (!m)
    return void 0;
  const { k, b, d } = options.bm25;
  const weights = options.weights ?? MATCH_WEIGHTS;
  const boostDocument = options.boostDocument;
  const fieldNames = m._options.fields;
  const fieldIds = Int32Array.from(fieldNames, (name) => m._fieldIds[name]);
  const fieldBoosts = Float64Array.from(fieldNames, (name) => options.boost[name] || 1);
  const fieldAvgs = Float64Array.from(fieldIds, (id) => m._avgFieldLength[id]);
  const n = m._nextId;
  const total = m._documentCount;
  const documentIds = m._documentIds;
  const fieldLength = m._fieldLength;
  const dirty = m._dirtCount > 0;
  const live = dirty ? liveDocuments(m) : new Uint8Array(0);
  const score = new Float64Array(n);
  const termScore = new Float64Array(n);
  const docBoost = new Float64Array(n).fill(Number.NaN);
  const lazyLengths = fieldLength instanceof LazyFieldLengths ? fieldLength : void 0;
  const lengthColumns2 = lazyLengths?.columns();
  const lengths = lazyLengths ? [] : new Array(n);
  const touched = [];
  const seen = new Uint8Array(n);
  const termTouched = [];
  const termSeen = new Uint8Array(n);
  const queryTermIndex = /* @__PURE__ */ new Map();
  const queryTermNames = [];
  const derivedIndex = /* @__PURE__ */ new Map();
  const derivedNames = [];
  const docQueryTerms = new BitSets(n);
  const quality = new Int32Array(n);
  const docDerived = new BitSets(n);
  const lastDerived = new Int32Array(n).fill(-1);
  const scoreTerm = (derivedTerm, data, termWeight, termBoost) => {
    if (data == null)
      return;
    let derived = derivedIndex.get(derivedTerm);
    if (derived === void 0) {
      derived = derivedNames.length;
      derivedIndex.set(derivedTerm, derived);
      derivedNames.push(derivedTerm);
    }
    const at = data instanceof LazyTermData ? data.packedAt() : void 0;
    const p = at ? at.packed : packMap(data);
    const base = at ? at.offset : 0;
    const q = at?.added;
    for (let f = 0; f < fieldIds.length; f++) {
      const fieldId = fieldIds[f];
      const start = sectionOf(p, base, fieldId);
      const addedStart = q === void 0 ? -1 : sectionOf(q, 0, fieldId);
      if (start < 0 && addedStart < 0)
        continue;
      const end = start < 0 ? start : start + 2 * p[start - 1];
      const addedEnd = addedStart < 0 ? addedStart : addedStart + 2 * q[addedStart - 1];
      let matching = (end - start + addedEnd - addedStart) / 2;
      if (dirty) {
        for (let j = start; j < end; j += 2)
          matching -= 1 - live[p[j]];
        for (let j = addedStart; j < addedEnd; j += 2)
          matching -= 1 - live[q[j]];
      }
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      const weight = termWeight * termBoost * fieldBoosts[f];
      const avg = fieldAvgs[f];
      for (let pass = 0; pass < 2; pass++) {
        const a = pass === 0 ? p : q;
        const to = pass === 0 ? end : addedEnd;
        for (let j = pass === 0 ? start : addedStart; j < to; j += 2) {
          const doc = a[j];
          if (dirty && live[doc] === 0)
            continue;
          let boost = docBoost[doc];
          if (boost !== boost) {
            boost = boostDocument ? boostDocument(documentIds.get(doc)) : 1;
            docBoost[doc] = boost;
          }
          if (!boost)
            continue;
          let length;
          if (lengthColumns2 !== void 0 && lengthColumns2.present[doc] === 1) {
            length = lengthColumns2.values[doc * lengthColumns2.fields + fieldId];
            if (length === MISSING_LENGTH)
              length = Number.NaN;
          } else if (lazyLengths !== void 0) {
            length = lazyLengths.lengthAt(doc, fieldId);
          } else {
            let lens = lengths[doc];
            if (lens === void 0)
              lens = lengths[doc] = fieldLength.get(doc);
            length = lens[fieldId];
          }
          const freq = a[j + 1];
          termScore[doc] += weight * boost * (idf * (d + freq * (k + 1) / (freq + k * (1 - b + b * length / avg))));
          if (termSeen[doc] === 0) {
            termSeen[doc] = 1;
            termTouched.push(doc);
          }
          if (lastDerived[doc] !== derived) {
            lastDerived[doc] = derived;
            docDerived.add(doc, derived);
          }
        }
      }
    }
  };
  for (const spec of specs) {
    const term = spec.term;
    const boost = spec.boost;
    scoreTerm(term, m._index.get(term), 1, boost);
    let fuzzyMatches;
    if (spec.fuzzy !== false) {
      const fuzzy = spec.fuzzy;
      const maxDistance = fuzzy < 1 ? Math.min(options.maxFuzzy, Math.round(term.length * fuzzy)) : fuzzy;
      if (maxDistance)
        fuzzyMatches = m._index.fuzzyGet(term, maxDistance);
    }
    if (spec.prefix) {
      for (const [match, data] of m._index.atPrefix(term)) {
        const distance = match.length - term.length;
        if (!distance)
          continue;
        fuzzyMatches?.delete(match);
        scoreTerm(match, data, weights.prefix * match.length / (match.length + 0.3 * distance), boost);
      }
    }
    if (fuzzyMatches) {
      for (const [match, [data, distance]] of fuzzyMatches) {
        if (!distance)
          continue;
        scoreTerm(match, data, weights.fuzzy * match.length / (match.length + distance), boost);
      }
    }
    let q = queryTermIndex.get(term);
    if (q === void 0) {
      q = queryTermNames.length;
      queryTermIndex.set(term, q);
      queryTermNames.push(term);
    }
    for (const doc of termTouched) {
      score[doc] += termScore[doc];
      termScore[doc] = 0;
      termSeen[doc] = 0;
      if (docQueryTerms.add(doc, q))
        quality[doc]++;
      if (seen[doc] === 0) {
        seen[doc] = 1;
        touched.push(doc);
      }
    }
    termTouched.length = 0;
  }
  const rank = new Int32Array(n);
  const key = new Float64Array(n);
  const kept = [];
  for (let i = 0; i < touched.length; i++) {
    const doc = touched[i];
    if (options.filter && !options.filter(documentIds.get(doc)))
      continue;
    rank[doc] = i;
    key[doc] = score[doc] * (quality[doc] || 1);
    kept.push(doc);
  }
  kept.sort((x, y) => key[y] - key[x] || rank[x] - rank[y]);
  const raw = new Float64Array(kept.length);
  const keptDocs = new Int32Array(kept.length);
  for (let i = 0; i < kept.length; i++) {
    keptDocs[i] = kept[i];
    raw[i] = score[kept[i]];
  }
  let exceptSet;
  let exceptMask = new Uint32Array(0);
  return {
    length: kept.length,
    documents: n,
    docs: keptDocs,
    id: (doc) => documentIds.get(doc),
    raw,
    queryTerms: (i) => docQueryTerms.values(kept[i]).map((q) => queryTermNames[q]),
    queryTermCount: (i, except) => {
      const doc = kept[i];
      if (!except || except.size === 0)
        return quality[doc];
      if (except !== exceptSet) {
        exceptSet = except;
        exceptMask = maskOf(queryTermNames.flatMap((t, q) => except.has(t) ? [q] : []));
      }
      return quality[doc] - docQueryTerms.countIn(doc, exceptMask);
    },
    terms: (i) => docDerived.values(kept[i]).map((t) => derivedNames[t])
  };
}
function sectionOf(p, base, fieldId) {
  for (let i = base + 1, sections = p[base], s = 0; s < sections; s++) {
    if (p[i] === fieldId)
      return i + 2;
    i += 2 + 2 * p[i + 1];
  }
  return -1;
}
function packResults(results, numbering) {
  const docs = Int32Array.from(results, (r) => numbering.numberOf(r.id));
  return {
    length: results.length,
    get documents() {
      return numbering.size;
    },
    docs,
    id: (doc) => numbering.idOf(doc),
    raw: Float64Array.from(results, (r) => r.score / (r.queryTerms.length || 1)),
    queryTerms: (i) => results[i].queryTerms,
    queryTermCount: (i, except) => results[i].queryTerms.filter((t) => !except?.has(t)).length,
    terms: (i) => results[i].terms
  };
}
var MATCH_WEIGHTS, liveCache, BitSets, DocNumbering;
var init_packed_search = __esm({
  "dist/search/packed-search.js"() {
    "use strict";
    init_search_state();
    MATCH_WEIGHTS = { fuzzy: 0.45, prefix: 0.375 };
    liveCache = /* @__PURE__ */ new WeakMap();
    BitSets = class {
      documents;
      blocks = [];
      constructor(documents) {
        this.documents = documents;
      }
      /** Adds `v` to `doc`'s set; true when it was not there. */
      add(doc, v) {
        const block2 = v >>> 5;
        while (this.blocks.length <= block2)
          this.blocks.push(new Uint32Array(this.documents));
        const bit = 1 << (v & 31);
        const words = this.blocks[block2];
        if ((words[doc] & bit) !== 0)
          return false;
        words[doc] = words[doc] | bit;
        return true;
      }
      /** How many of `doc`'s values are in `mask` (a bit set of values, as `maskOf` makes). */
      countIn(doc, mask) {
        let count2 = 0;
        for (let b = 0; b < this.blocks.length && b < mask.length; b++)
          count2 += popcount(this.blocks[b][doc] & mask[b]);
        return count2;
      }
      /** `doc`'s values, ascending. */
      values(doc) {
        const out = [];
        for (let b = 0; b < this.blocks.length; b++) {
          const word = this.blocks[b][doc];
          if (word === 0)
            continue;
          for (let bit = 0; bit < 32; bit++)
            if ((word & 1 << bit) !== 0)
              out.push(b * 32 + bit);
        }
        return out;
      }
    };
    DocNumbering = class {
      numbers = /* @__PURE__ */ new Map();
      ids = [];
      get size() {
        return this.ids.length;
      }
      numberOf(id) {
        let doc = this.numbers.get(id);
        if (doc === void 0) {
          doc = this.ids.length;
          this.numbers.set(id, doc);
          this.ids.push(id);
        }
        return doc;
      }
      idOf(doc) {
        return this.ids[doc];
      }
    };
  }
});

// dist/store/memory-store.js
import { closeSync, lstatSync, openSync, readdirSync, readFileSync as readFileSync3, readSync, rmSync as rmSync2, statSync as statSync3 } from "node:fs";
import { join as join4, relative, sep } from "node:path";
function scanMemoryFiles(paths) {
  const dir = paths.memoriesDir.endsWith(sep) ? paths.memoriesDir : paths.memoriesDir + sep;
  let listed;
  try {
    listed = readdirSync(paths.memoriesDir);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "ENOTDIR"))
      return { dir, names: [], sizes: new Float64Array(0), mtimes: new Float64Array(0) };
    throw err;
  }
  const names = [];
  const sizes = new Float64Array(listed.length);
  const mtimes = new Float64Array(listed.length);
  const previousDir = enterDirectory(paths.memoriesDir);
  try {
    for (const name of listed) {
      if (!name.endsWith(".md") || name.charCodeAt(0) === 46)
        continue;
      const target = previousDir ? name : dir + name;
      let st = lstatSync(target, { throwIfNoEntry: false });
      if (st?.isSymbolicLink())
        st = statSync3(target, { throwIfNoEntry: false });
      if (!st || !st.isFile())
        continue;
      sizes[names.length] = st.size;
      mtimes[names.length] = st.mtimeMs;
      names.push(name);
    }
  } finally {
    if (previousDir)
      leaveDirectory(previousDir);
  }
  return { dir, names, sizes: sizes.subarray(0, names.length), mtimes: mtimes.subarray(0, names.length) };
}
function listMemoryFiles(paths) {
  const scan = scanMemoryFiles(paths);
  const order = scan.names.map((_, i) => i).sort((a, b) => scan.names[a] < scan.names[b] ? -1 : scan.names[a] > scan.names[b] ? 1 : 0);
  return order.map((i) => scanEntry(scan, i));
}
function scanEntry(scan, i) {
  const name = scan.names[i];
  return { path: scan.dir + name, id: name.slice(0, -3), size: scan.sizes[i], mtimeMs: scan.mtimes[i] };
}
function enterDirectory(dir) {
  try {
    const previous = process.cwd();
    process.chdir(dir);
    return previous;
  } catch {
    return void 0;
  }
}
function leaveDirectory(previous) {
  try {
    process.chdir(previous);
  } catch {
  }
}
function displayPath(path3, base) {
  const rel = relative(base, path3);
  return rel.startsWith("..") ? path3 : rel;
}
function readMemoryFile(entry, shownAs) {
  let text3;
  let mtime;
  try {
    const st = statSync3(entry.path);
    if (st.size > MAX_MEMORY_FILE_BYTES) {
      return {
        memory: void 0,
        text: void 0,
        diagnostics: [
          {
            file: shownAs,
            reason: `file is ${(st.size / 1024 / 1024).toFixed(1)} MB; a memory file may be at most 1 MB`,
            ruleId: "file-too-large",
            severity: "error",
            hint: "Move large content out of .cortex/ and link to it from a short memory."
          }
        ]
      };
    }
    mtime = st.mtime;
    text3 = readFileSync3(entry.path, "utf8");
  } catch (err) {
    return {
      memory: void 0,
      text: void 0,
      diagnostics: [
        {
          file: shownAs,
          reason: `cannot read file: ${err.code ?? err.message}`,
          ruleId: "file-unreadable",
          severity: "error",
          hint: "Check the file permissions."
        }
      ]
    };
  }
  const { memory, diagnostics } = parseMemory(text3, {
    file: shownAs,
    expectedId: entry.id,
    fallbackDate: formatDate(mtime)
  });
  return { memory, diagnostics, text: text3 };
}
function readMemoryById(paths, id, base) {
  const path3 = memoryPath(paths, id);
  try {
    statSync3(path3);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT"))
      throw new MemoryNotFoundError(id);
    throw err;
  }
  return { ...readMemoryFile({ path: path3, id }, displayPath(path3, base)), path: path3 };
}
function writeMemory(paths, memory) {
  const path3 = memoryPath(paths, memory.id);
  return { path: path3, result: writeIfChanged(path3, renderMemory(memory)) };
}
function deleteMemory(paths, id) {
  const path3 = memoryPath(paths, id);
  try {
    statSync3(path3);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT"))
      return false;
    throw err;
  }
  rmSync2(path3);
  return true;
}
function readSmall(path3) {
  let fd;
  try {
    fd = openSync(path3, "r");
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "EISDIR"))
      return null;
    return void 0;
  }
  try {
    scratch ??= Buffer.allocUnsafe(SMALL_FILE + 1);
    let n = 0;
    for (; ; ) {
      const got = readSync(fd, scratch, n, scratch.length - n, n);
      if (got === 0)
        break;
      n += got;
      if (n > SMALL_FILE)
        return void 0;
    }
    return scratch.toString("utf8", 0, n);
  } catch (err) {
    return isErrnoCode(err, "EISDIR") ? null : void 0;
  } finally {
    closeSync(fd);
  }
}
function readAllMemories(paths, base) {
  let names;
  try {
    names = readdirSync(paths.memoriesDir);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "ENOTDIR"))
      return { memories: [], diagnostics: [] };
    throw err;
  }
  const memories = [];
  const diagnostics = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".md") || name.startsWith("."))
      continue;
    const path3 = join4(paths.memoriesDir, name);
    const id = name.slice(0, -3);
    const text3 = readSmall(path3);
    if (text3 === null)
      continue;
    const parsed = text3 === void 0 ? void 0 : parseMemory(text3, { file: displayPath(path3, base), expectedId: id });
    if (parsed?.memory && parsed.diagnostics.length === 0) {
      memories.push(parsed.memory);
      continue;
    }
    const read2 = readMemoryFile({ path: path3, id }, displayPath(path3, base));
    if (read2.memory)
      memories.push(read2.memory);
    diagnostics.push(...read2.diagnostics);
  }
  return { memories, diagnostics };
}
var MAX_MEMORY_FILE_BYTES, SMALL_FILE, scratch;
var init_memory_store = __esm({
  "dist/store/memory-store.js"() {
    "use strict";
    init_errors();
    init_memory();
    init_memory_format();
    init_atomic();
    init_paths();
    MAX_MEMORY_FILE_BYTES = 1024 * 1024;
    SMALL_FILE = 64 * 1024;
  }
});

// dist/search/file-table.js
function isFileColumns(value2) {
  const c = value2;
  if (typeof c !== "object" || c === null || !(c.sizes instanceof Float64Array))
    return false;
  const n = c.sizes.length;
  return c.mtimes instanceof Float64Array && c.mtimes.length === n && isSavedStrings(c.names, n) && isSavedStrings(c.hashes, n) && isSavedStrings(c.ids, n) && c.diagnosed instanceof Uint32Array && Array.isArray(c.diagnostics) && c.diagnostics.length === c.diagnosed.length && c.diagnosed.every((row) => row < n) && c.diagnostics.every((list2) => Array.isArray(list2));
}
var FileTable;
var init_file_table = __esm({
  "dist/search/file-table.js"() {
    "use strict";
    init_columns();
    FileTable = class _FileTable {
      /** Row → file name. */
      names = new StringColumn();
      /** Deleted rows (dropped when saved). */
      deleted = /* @__PURE__ */ new Set();
      sizes = [];
      mtimes = [];
      hashes = new StringColumn();
      ids = new StringColumn();
      /** Problems of broken files, by row (a few rows at most). */
      diagnostics = /* @__PURE__ */ new Map();
      /** Name → row, built on the first lookup whose guess fails. */
      rows;
      live = 0;
      /** The row after the one last found: where the next name of a listing usually is. */
      next = 0;
      /** Rows in the order of the last listing ({@link listed}), for the saved order. */
      order;
      /** A table from saved columns; throws when they are not (the caller rebuilds). */
      static fromSaved(saved) {
        if (!isFileColumns(saved))
          throw new TypeError("not a saved file table");
        const table = new _FileTable();
        table.names = StringColumn.fromSaved(saved.names);
        table.sizes = saved.sizes;
        table.mtimes = saved.mtimes;
        table.hashes = StringColumn.fromSaved(saved.hashes);
        table.ids = StringColumn.fromSaved(saved.ids);
        saved.diagnosed.forEach((row, i) => table.diagnostics.set(row, saved.diagnostics[i]));
        table.live = saved.sizes.length;
        return table;
      }
      get size() {
        return this.live;
      }
      /** The number of rows, deleted ones included: every row is below it. */
      get rowCount() {
        return this.names.length;
      }
      /** The row of file `name`, or -1. */
      rowOf(name) {
        const guess = this.next;
        if (guess < this.names.length && this.names.equals(guess, name) && !this.deleted.has(guess)) {
          this.next = guess + 1;
          return guess;
        }
        if (!this.rows) {
          this.rows = /* @__PURE__ */ new Map();
          for (let row2 = 0; row2 < this.names.length; row2++)
            if (!this.deleted.has(row2))
              this.rows.set(this.names.at(row2), row2);
        }
        const row = this.rows.get(name) ?? -1;
        if (row >= 0)
          this.next = row + 1;
        return row;
      }
      has(name) {
        return this.rowOf(name) >= 0;
      }
      nameAt(row) {
        return row >= this.names.length || this.deleted.has(row) ? void 0 : this.names.at(row);
      }
      sizeAt(row) {
        return this.sizes[row];
      }
      mtimeAt(row) {
        return this.mtimes[row];
      }
      /** The problems of the file at `row` (none for most). */
      diagnosticsAt(row) {
        return this.diagnostics.size === 0 || this.deleted.has(row) ? void 0 : this.diagnostics.get(row);
      }
      entryAt(row) {
        const name = this.nameAt(row);
        if (name === void 0)
          return void 0;
        const entry = { size: this.sizes[row], mtimeMs: this.mtimes[row], hash: this.hashes.at(row) };
        const id = this.ids.at(row);
        if (id !== "")
          entry.id = id;
        const problems = this.diagnostics.get(row);
        if (problems)
          entry.diagnostics = problems;
        return entry;
      }
      get(name) {
        const row = this.rowOf(name);
        return row < 0 ? void 0 : this.entryAt(row);
      }
      set(name, entry) {
        let row = this.rowOf(name);
        if (row < 0) {
          row = this.names.length;
          this.names.set(row, name);
          this.rows?.set(name, row);
          this.live++;
          if (!Array.isArray(this.sizes)) {
            this.sizes = Array.from(this.sizes);
            this.mtimes = Array.from(this.mtimes);
          }
        }
        this.sizes[row] = entry.size;
        this.mtimes[row] = entry.mtimeMs;
        this.hashes.set(row, entry.hash);
        this.ids.set(row, entry.id ?? "");
        if (entry.diagnostics && entry.diagnostics.length > 0)
          this.diagnostics.set(row, entry.diagnostics);
        else
          this.diagnostics.delete(row);
      }
      /** Records a new size and mtime for a file whose text did not change. */
      touch(row, size, mtimeMs) {
        this.sizes[row] = size;
        this.mtimes[row] = mtimeMs;
      }
      delete(name) {
        const row = this.rowOf(name);
        if (row < 0)
          return false;
        this.deleted.add(row);
        this.rows?.delete(name);
        this.diagnostics.delete(row);
        this.live--;
        return true;
      }
      /** The names of the files, in row order. */
      *keys() {
        for (let row = 0; row < this.names.length; row++)
          if (!this.deleted.has(row))
            yield this.names.at(row);
      }
      /**
       * The rows of a directory listing, in its order: saved in that order, so that the next
       * listing of the same directory finds every file at its guess.
       */
      listed(rows) {
        this.order = rows;
      }
      /** The live rows as columns: in the order of the last listing, then the others. */
      toSaved() {
        const rows = [];
        const taken = new Uint8Array(this.names.length);
        for (const row of this.order ?? []) {
          if (this.deleted.has(row) || taken[row])
            continue;
          taken[row] = 1;
          rows.push(row);
        }
        for (let row = 0; row < this.names.length; row++)
          if (!this.deleted.has(row) && !taken[row])
            rows.push(row);
        const cols = {
          names: this.names.saveRows(rows),
          sizes: Float64Array.from(rows, (r) => this.sizes[r]),
          mtimes: Float64Array.from(rows, (r) => this.mtimes[r]),
          hashes: this.hashes.saveRows(rows),
          ids: this.ids.saveRows(rows),
          diagnosed: new Uint32Array(0),
          diagnostics: []
        };
        const diagnosed = [];
        rows.forEach((row, i) => {
          const problems = this.diagnostics.get(row);
          if (!problems)
            return;
          diagnosed.push(i);
          cols.diagnostics.push(problems);
        });
        cols.diagnosed = Uint32Array.from(diagnosed);
        return cols;
      }
    };
  }
});

// dist/search/keyword-index.js
import { createHash as createHash2, randomBytes as randomBytes2 } from "node:crypto";
import { existsSync as existsSync2, readFileSync as readFileSync4, readdirSync as readdirSync2, rmSync as rmSync3, statSync as statSync4 } from "node:fs";
import { join as join5 } from "node:path";
import { deserialize as deserialize2, serialize as serialize2 } from "node:v8";
import MiniSearch2 from "minisearch";
function packIndexFile(header, records) {
  const head = serialize2(header);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([INDEX_MAGIC, length, head, records]);
}
function unpackIndexFile(bytes) {
  if (bytes.length < 8 || !bytes.subarray(0, 4).equals(INDEX_MAGIC))
    throw new TypeError("not an index file");
  const length = bytes.readUInt32LE(4);
  if (8 + length > bytes.length)
    throw new TypeError("truncated index file");
  const header = deserialize2(bytes.subarray(8, 8 + length));
  if (typeof header !== "object" || header === null)
    throw new TypeError("not an index file");
  return { ...header, records: bytes.subarray(8 + length) };
}
function isJournal(value2) {
  const j = value2;
  return typeof j === "object" && j !== null && Array.isArray(j.removed) && j.removed.every((id) => typeof id === "string") && Array.isArray(j.added) && j.added.every(isAnalyzedDoc);
}
function sha1(text3) {
  return createHash2("sha1").update(text3).digest("hex");
}
function contentKeyOf(memory) {
  return sha1(`${memory.type}
${memory.summary.trim().toLowerCase()}
${normalizeBody(memory.body)}`);
}
function toDoc(memory, file, links) {
  const body = normalizeBody(memory.body);
  return {
    id: memory.id,
    type: memory.type,
    summary: memory.summary,
    status: memory.status,
    scope: memory.scope,
    tags: memory.tags,
    priority: memory.priority,
    confidence: memory.confidence,
    pinned: memory.pinned,
    topic: memory.topic,
    created: memory.created,
    updated: memory.updated,
    branch: memory.source.branch,
    commit: memory.source.commit,
    session: memory.source.session,
    files: memory.source.files,
    links: links.length > 0 ? links : void 0,
    contentKey: contentKeyOf(memory),
    bodyLength: body.length,
    preview: body.slice(0, 240),
    file
  };
}
function fullText(memory) {
  const flat = (s) => s.replace(/\s+/g, " ").trim();
  const summary = flat(memory.summary);
  const body = flat(memory.body);
  return body.startsWith(summary.replace(/…$/, "")) ? body : `${summary} ${body}`.trim();
}
function searchDoc(memory) {
  return {
    id: memory.id,
    text: fullText(memory),
    summary: memory.summary,
    tags: memory.tags.join(" "),
    topic: memory.topic ?? "",
    files: (memory.source.files ?? []).join(" "),
    type: memory.type
  };
}
function coordinate(results, expansions) {
  const counts = new Int32Array(results.length);
  const scores = new Float64Array(results.length);
  for (let i = 0; i < results.length; i++) {
    counts[i] = results.queryTermCount(i, expansions);
    scores[i] = results.raw[i] * Math.max(1, counts[i]);
  }
  const order = new Int32Array(results.length);
  for (let i = 0; i < order.length; i++)
    order[i] = i;
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return { counts, scores, order };
}
function removeStaleSearchFiles(dir, keep) {
  const now = Date.now();
  const others = [];
  for (const name of readdirSync2(dir)) {
    if (name === keep || !name.startsWith("index-search-") || !name.endsWith(".v8"))
      continue;
    try {
      others.push({ name, mtimeMs: statSync4(join5(dir, name)).mtimeMs });
    } catch {
    }
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { name, mtimeMs } of others.slice(1)) {
    if (now - mtimeMs > STALE_SEARCH_FILE_MS)
      rmSync3(join5(dir, name), { force: true });
  }
}
var INDEX_FORMAT_VERSION, FIELD_BOOSTS, FIELDS2, BM25, EXPANSION_WEIGHT, TIME_WEIGHT, TYPE_HINT_BOOST, FEEDBACK, JOURNAL_LIMIT, INDEX_MAGIC, STALE_SEARCH_FILE_MS, MINISEARCH_OPTIONS, ANALYZER, OPTIONS_HASH, DEFAULT_SEARCH, NO_LINKS, KeywordIndex;
var init_keyword_index = __esm({
  "dist/search/keyword-index.js"() {
    "use strict";
    init_doc_table();
    init_memory_format();
    init_query();
    init_text();
    init_atomic();
    init_packed_search();
    init_search_state();
    init_memory_store();
    init_file_table();
    INDEX_FORMAT_VERSION = 9;
    FIELD_BOOSTS = { text: 1, summary: 0.5, tags: 1.4, topic: 1.5, files: 1, type: 0.5 };
    FIELDS2 = Object.keys(FIELD_BOOSTS);
    BM25 = { k: 1.2, b: 0.4, d: 0.5 };
    EXPANSION_WEIGHT = 0.3;
    TIME_WEIGHT = 0.1;
    TYPE_HINT_BOOST = 1.25;
    FEEDBACK = { docs: 5, terms: 10, weight: 0.3, keep: 3 };
    JOURNAL_LIMIT = 48;
    INDEX_MAGIC = Buffer.from("CXI", "latin1");
    STALE_SEARCH_FILE_MS = 6e4;
    MINISEARCH_OPTIONS = {
      fields: FIELDS2,
      idField: "id",
      storeFields: [],
      tokenize: (text3) => tokenize(text3),
      processTerm: (term) => processTerm(term),
      autoVacuum: false
    };
    ANALYZER = { fields: FIELDS2, idField: "id", tokenize: MINISEARCH_OPTIONS.tokenize, processTerm: MINISEARCH_OPTIONS.processTerm };
    OPTIONS_HASH = createHash2("sha1").update(JSON.stringify({ fields: FIELDS2, analysis: "porter+stop+camel+irregular/v2", text: "summary+body/v1" })).digest("hex").slice(0, 12);
    DEFAULT_SEARCH = {
      limit: 10,
      statuses: ["active"],
      expand: true,
      feedback: true
    };
    NO_LINKS = () => [];
    KeywordIndex = class _KeywordIndex {
      files;
      docs;
      // Loading the MiniSearch tree is the largest cost of opening the index (10,000 memories:
      // tens of ms even from V8's serializer), and only a query needs it: list, status and
      // graph walks never do. It lives in its own file, read on first use.
      searchIndex;
      /** The saved search tree; undefined when the tree in memory is all there is (a fresh build). */
      searchFile;
      /**
       * Changes since `searchFile` was written, by memory id: `undefined` takes the memory out,
       * a search doc (re)adds it. Replayed onto the saved tree when it is loaded.
       */
      journal = /* @__PURE__ */ new Map();
      cacheDir;
      lastRefresh;
      dirty;
      /** True when the cache could not be used and the index was built from scratch. */
      rebuilt;
      constructor(data, cacheDir) {
        this.cacheDir = cacheDir;
        if (data) {
          this.files = FileTable.fromSaved(data.files);
          this.docs = DocTable.fromSaved(data.docs, data.records);
          this.searchFile = data.searchFile;
          for (const id of data.journal.removed)
            this.journal.set(id, void 0);
          for (const doc of data.journal.added)
            this.journal.set(doc.id, doc);
          this.dirty = false;
          this.rebuilt = false;
        } else {
          this.files = new FileTable();
          this.docs = new DocTable();
          this.searchIndex = new MiniSearch2(MINISEARCH_OPTIONS);
          this.dirty = true;
          this.rebuilt = true;
        }
      }
      get search() {
        if (!this.searchIndex) {
          const path3 = this.cacheDir && this.searchFile ? join5(this.cacheDir, this.searchFile) : void 0;
          let loaded2;
          try {
            loaded2 = path3 ? loadSearchState(readFileSync4(path3), MINISEARCH_OPTIONS) : void 0;
          } catch {
            loaded2 = void 0;
          }
          const terms = /* @__PURE__ */ new Map();
          for (const [id, doc] of loaded2 ? this.journal : []) {
            if (loaded2.has(id))
              loaded2.discard(id);
            if (doc && !addAnalyzed(loaded2, doc, terms)) {
              loaded2 = void 0;
              break;
            }
          }
          if (loaded2) {
            this.searchIndex = loaded2;
          } else {
            this.searchIndex = new MiniSearch2(MINISEARCH_OPTIONS);
            this.searchFile = void 0;
            this.journal.clear();
            this.files = new FileTable();
            this.docs.clear();
            this.dirty = true;
            if (this.lastRefresh)
              this.refresh(this.lastRefresh.paths, this.lastRefresh.options);
          }
        }
        return this.searchIndex;
      }
      /**
       * Takes a memory out of the search tree and adds `doc` (when given) in its place: in the
       * tree when it is loaded, and in the journal when the tree is saved, so that a refresh
       * never needs to load the tree.
       */
      changeSearch(id, doc) {
        const analyzed = doc && this.searchFile !== void 0 ? analyzeDocument(doc, ANALYZER) : void 0;
        if (this.searchIndex) {
          if (this.searchIndex.has(id))
            this.searchIndex.discard(id);
          if (analyzed) {
            if (!addAnalyzed(this.searchIndex, analyzed))
              this.searchIndex.add(doc);
          } else if (doc) {
            this.searchIndex.add(doc);
          }
        }
        if (this.searchFile !== void 0)
          this.journal.set(id, analyzed);
        this.dirty = true;
      }
      static indexPath(paths) {
        return join5(paths.cacheDir, "index.v8");
      }
      /** Loads the cache; anything unusable (missing, corrupt, other version) gives an empty index. */
      static load(paths) {
        let data;
        try {
          const parsed = unpackIndexFile(readFileSync4(_KeywordIndex.indexPath(paths)));
          if (parsed?.version === INDEX_FORMAT_VERSION && parsed.optionsHash === OPTIONS_HASH && parsed.files && parsed.docs && typeof parsed.searchFile === "string" && isJournal(parsed.journal) && /^index-search-[0-9a-f]+\.v8$/.test(parsed.searchFile) && existsSync2(join5(paths.cacheDir, parsed.searchFile))) {
            data = parsed;
          }
        } catch {
          data = void 0;
        }
        if (data) {
          try {
            return new _KeywordIndex(data, paths.cacheDir);
          } catch {
          }
        }
        return new _KeywordIndex(void 0, paths.cacheDir);
      }
      /** An empty index that ignores any cache (a full rebuild). */
      static empty() {
        return new _KeywordIndex(void 0);
      }
      get size() {
        return this.docs.size;
      }
      get isDirty() {
        return this.dirty;
      }
      /**
       * Brings the index up to date with the files on disk: stat every file, re-read only
       * those whose size or mtime changed, and parse only those whose content changed.
       */
      refresh(paths, options) {
        this.lastRefresh = { paths, options: { base: options.base, ...options.links ? { links: options.links } : {} } };
        const links = options.links ?? NO_LINKS;
        const scan = options.scan ?? scanMemoryFiles(paths);
        const report = { added: 0, updated: 0, removed: 0, diagnostics: [] };
        const files = this.files;
        const known = files.rowCount;
        const seen = new Uint8Array(known);
        const order = [];
        const changed = [];
        for (let i = 0; i < scan.names.length; i++) {
          const row = files.rowOf(scan.names[i]);
          if (row < 0) {
            changed.push(i);
            continue;
          }
          seen[row] = 1;
          order.push(row);
          if (files.sizeAt(row) === scan.sizes[i] && files.mtimeAt(row) === scan.mtimes[i]) {
            const problems = files.diagnosticsAt(row);
            if (problems)
              report.diagnostics.push(...problems);
          } else {
            changed.push(i);
          }
        }
        changed.sort((a, b) => scan.names[a] < scan.names[b] ? -1 : scan.names[a] > scan.names[b] ? 1 : 0);
        for (const i of changed) {
          const entry = scanEntry(scan, i);
          const name = scan.names[i];
          const row = files.rowOf(name);
          const before = row < 0 ? void 0 : files.entryAt(row);
          const shown = displayPath(entry.path, options.base);
          const read2 = readMemoryFile(entry, shown);
          const hash = read2.text === void 0 ? "" : sha1(read2.text);
          if (before && before.hash === hash && hash !== "") {
            files.touch(row, entry.size, entry.mtimeMs);
            this.dirty = true;
            if (before.diagnostics)
              report.diagnostics.push(...before.diagnostics);
            continue;
          }
          if (before?.id !== void 0)
            this.removeDoc(before.id);
          const fileEntry = { size: entry.size, mtimeMs: entry.mtimeMs, hash };
          if (read2.diagnostics.length > 0)
            fileEntry.diagnostics = read2.diagnostics;
          if (read2.memory) {
            const memory = read2.memory;
            if (this.docs.has(memory.id))
              this.removeDoc(memory.id);
            this.docs.set(memory.id, toDoc(memory, shown, links(memory.body)));
            this.changeSearch(memory.id, searchDoc(memory));
            fileEntry.id = memory.id;
            if (before)
              report.updated++;
            else
              report.added++;
          } else if (before?.id !== void 0) {
            report.removed++;
          }
          report.diagnostics.push(...read2.diagnostics);
          files.set(name, fileEntry);
          if (row < 0)
            order.push(files.rowOf(name));
          this.dirty = true;
        }
        for (let row = 0; row < known; row++) {
          if (seen[row])
            continue;
          const name = files.nameAt(row);
          if (name === void 0)
            continue;
          const gone = files.entryAt(row);
          if (gone.id !== void 0) {
            this.removeDoc(gone.id);
            report.removed++;
          }
          files.delete(name);
          this.dirty = true;
        }
        files.listed(order);
        report.diagnostics.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
        return report;
      }
      removeDoc(id) {
        if (!this.docs.has(id))
          return;
        this.docs.delete(id);
        this.changeSearch(id, void 0);
      }
      /** Records a memory just written by this process, so the index need not re-read it. */
      upsert(memory, entry, text3, options) {
        const name = `${entry.id}.md`;
        const known = this.files.get(name);
        if (known?.id !== void 0)
          this.removeDoc(known.id);
        this.removeDoc(memory.id);
        const shown = displayPath(entry.path, options.base);
        this.docs.set(memory.id, toDoc(memory, shown, (options.links ?? NO_LINKS)(memory.body)));
        this.changeSearch(memory.id, searchDoc(memory));
        this.files.set(name, { size: entry.size, mtimeMs: entry.mtimeMs, hash: sha1(text3), id: memory.id });
      }
      /** Forgets a memory whose file was deleted by this process. */
      remove(id) {
        this.removeDoc(id);
        this.files.delete(`${id}.md`);
        this.dirty = true;
      }
      /**
       * Saves the cache atomically when anything changed. The search tree's file is written only
       * for a fresh build or when the journal is past {@link JOURNAL_LIMIT} (the tree then
       * includes it); otherwise the index alone is written, with the journal. Readers that
       * loaded the previous index keep a valid search file for a while; older ones are removed.
       */
      save(paths) {
        if (!this.dirty)
          return;
        const newTree = this.searchFile === void 0 || this.journal.size > JOURNAL_LIMIT;
        if (newTree) {
          const name = `index-search-${randomBytes2(6).toString("hex")}.v8`;
          writeFileAtomic(join5(paths.cacheDir, name), saveSearchState(this.search));
          this.searchFile = name;
          this.journal.clear();
        }
        const journal = { removed: [], added: [] };
        for (const [id, doc] of this.journal) {
          journal.removed.push(id);
          if (doc)
            journal.added.push(doc);
        }
        const docs = this.docs.toSaved();
        const data = {
          version: INDEX_FORMAT_VERSION,
          optionsHash: OPTIONS_HASH,
          files: this.files.toSaved(),
          docs: docs.saved,
          searchFile: this.searchFile,
          journal
        };
        writeFileAtomic(_KeywordIndex.indexPath(paths), packIndexFile(data, docs.records));
        if (newTree)
          removeStaleSearchFiles(paths.cacheDir, this.searchFile);
        rmSync3(join5(paths.cacheDir, "index.json"), { force: true });
        this.dirty = false;
      }
      /** The filters on unpacked fields (status, type, scope). */
      static matchesFacets(doc, options) {
        const statuses = options.statuses ?? DEFAULT_SEARCH.statuses;
        if (!statuses.includes(doc.status))
          return false;
        if (options.types && options.types.length > 0 && !options.types.includes(doc.type))
          return false;
        if (options.scope && doc.scope !== options.scope)
          return false;
        return true;
      }
      /** The filters that need the whole record (tags, date). */
      static matchesRecord(doc, options) {
        if (options.tags && options.tags.length > 0 && !options.tags.every((t) => doc.tags.includes(t)))
          return false;
        if (options.since && Date.parse(doc.updated) < Date.parse(options.since))
          return false;
        return true;
      }
      static needsRecord(options) {
        return options.tags !== void 0 && options.tags.length > 0 || options.since !== void 0;
      }
      /** True when the memory `id` passes the filters, reading its record only when a filter needs it. */
      passes(id, options, needsRecord) {
        const facets = this.docs.facets(id);
        if (facets === void 0 || !_KeywordIndex.matchesFacets(facets, options))
          return false;
        return !needsRecord || _KeywordIndex.matchesRecord(this.docs.get(id), options);
      }
      /**
       * Keyword search: BM25+ with field boosts, prefix and fuzzy matching, thesaurus
       * expansions at a lower weight, and a boost for the types the question hints at.
       * Then pseudo-relevance feedback widens the rest of the list (see `FEEDBACK`).
       */
      query(text3, options = {}) {
        const opts = { ...DEFAULT_SEARCH, ...options };
        const plan2 = planQuery(text3, { expand: opts.expand });
        if (plan2.terms.length === 0)
          return [];
        const expansions = new Set(plan2.expansions);
        const timeTerms = new Set(plan2.timeTerms);
        const guessed = /* @__PURE__ */ new Set([...plan2.expansions, ...plan2.timeTerms]);
        const hinted = new Set(plan2.typeHints);
        const needsRecord = _KeywordIndex.needsRecord(opts);
        const all = [...plan2.terms, ...plan2.expansions, ...plan2.timeTerms];
        const specs = all.map((term) => ({
          term,
          // Terms the question did not say are matched exactly.
          prefix: term.length >= 4 && !guessed.has(term),
          fuzzy: term.length >= 6 && !guessed.has(term) ? 0.2 : false,
          boost: timeTerms.has(term) ? TIME_WEIGHT : guessed.has(term) ? EXPANSION_WEIGHT : 1
        }));
        const passes = (id) => this.passes(id, opts, needsRecord);
        const boostDocument = (
          // Skipped when the question hints at no type.
          hinted.size === 0 ? void 0 : (id) => {
            const type = this.docs.typeOf(id);
            return type !== void 0 && hinted.has(type) ? TYPE_HINT_BOOST : 1;
          }
        );
        const numbering = new DocNumbering();
        const first = this.run(specs, boostDocument, numbering);
        const ranked = coordinate(first, expansions);
        const firstHits = (n2) => {
          const out2 = [];
          for (let k = 0; k < ranked.order.length && out2.length < n2; k++) {
            const i = ranked.order[k];
            const id = first.id(first.docs[i]);
            if (passes(id))
              out2.push({ id, score: ranked.scores[i], terms: first.terms(i) });
          }
          return out2;
        };
        const head = firstHits(Math.max(FEEDBACK.docs, FEEDBACK.keep + 1));
        if (!opts.feedback || opts.limit <= FEEDBACK.keep || head.length <= FEEDBACK.keep)
          return firstHits(opts.limit);
        const added = feedbackTerms(head.slice(0, FEEDBACK.docs).map((h) => ({ text: this.feedbackText(h.id), score: h.score })), { exclude: new Set(all), docFreq: (t) => this.docFreq(t), totalDocs: this.search.documentCount, terms: FEEDBACK.terms, weight: FEEDBACK.weight });
        if (added.size === 0)
          return firstHits(opts.limit);
        const more = this.run([...added].map(([term, weight]) => ({ term, prefix: false, fuzzy: false, boost: weight })), boostDocument, numbering);
        const n = Math.max(first.documents, more.documents);
        const score = new Float64Array(n);
        const count2 = new Int32Array(n);
        const firstAt = new Int32Array(n).fill(-1);
        const insertion = new Int32Array(n);
        const docs = [];
        for (let k = 0; k < ranked.order.length; k++) {
          const i = ranked.order[k];
          const doc = first.docs[i];
          score[doc] = first.raw[i];
          count2[doc] = ranked.counts[i];
          firstAt[doc] = i;
          insertion[doc] = docs.length;
          docs.push(doc);
        }
        for (let i = 0; i < more.length; i++) {
          const doc = more.docs[i];
          if (firstAt[doc] === -1) {
            insertion[doc] = docs.length;
            docs.push(doc);
          }
          score[doc] += more.raw[i];
          count2[doc] += more.queryTermCount(i);
        }
        const final = new Float64Array(n);
        for (const doc of docs)
          final[doc] = score[doc] * Math.max(1, count2[doc]);
        docs.sort((a, b) => final[b] - final[a] || insertion[a] - insertion[b]);
        const kept = head.slice(0, FEEDBACK.keep);
        const seen = new Set(kept.map((h) => h.id));
        const floor = kept[kept.length - 1]?.score ?? 0;
        const out = [...kept];
        let scale;
        for (const doc of docs) {
          if (out.length >= opts.limit)
            break;
          const id = (firstAt[doc] !== -1 ? first : more).id(doc);
          if (!passes(id))
            continue;
          scale ??= final[doc] > 0 ? floor * 0.999 / final[doc] : 0;
          if (seen.has(id))
            continue;
          out.push({ id, score: final[doc] * scale, terms: firstAt[doc] !== -1 ? first.terms(firstAt[doc]) : [] });
        }
        return out;
      }
      /**
       * The OR query of `specs`, unfiltered, from the packed postings (MiniSearch's own search if
       * its internals are not as expected).
       */
      run(specs, boostDocument, numbering) {
        const packed = searchPacked(this.search, specs, { boost: FIELD_BOOSTS, bm25: BM25, maxFuzzy: 2, boostDocument });
        if (packed)
          return packed;
        return packResults(this.search.search({ combineWith: "OR", queries: specs.map((s) => ({ queries: [s.term], prefix: s.prefix, fuzzy: s.fuzzy, boostTerm: () => s.boost })) }, {
          boost: FIELD_BOOSTS,
          bm25: BM25,
          maxFuzzy: 2,
          tokenize: (t) => [t],
          processTerm: (t) => t,
          ...boostDocument ? { boostDocument: (id) => boostDocument(id) } : {}
        }), numbering);
      }
      /** What feedback reads of a memory: its summary and the start of its body, the summary once. */
      feedbackText(id) {
        const doc = this.docs.get(id);
        if (!doc)
          return "";
        return doc.preview.startsWith(doc.summary.replace(/…$/, "")) ? doc.preview : `${doc.summary} ${doc.preview}`;
      }
      /**
       * Number of memories containing an analysed term: its largest count in one field (the
       * `text` field holds summary and body, so that is nearly always the exact figure, without
       * building a union). MiniSearch has no public accessor; its term index is a documented
       * `protected` member. If that ever changes this returns 0, which turns feedback off rather
       * than failing (a test guards that it works).
       */
      docFreq(term) {
        return termDocCount(this.search, term) ?? 0;
      }
      /** Documents passing the filters, without a query. */
      filter(options = {}) {
        const needsRecord = _KeywordIndex.needsRecord(options);
        const out = [];
        for (const facets of this.docs.allFacets()) {
          if (this.passes(facets.id, options, needsRecord))
            out.push(this.docs.get(facets.id));
        }
        return out;
      }
      /** The doc with this content key, if any (duplicate detection). */
      findByContentKey(key) {
        for (const facets of this.docs.allFacets())
          if (facets.contentKey === key)
            return this.docs.get(facets.id);
        return void 0;
      }
      /** Docs with this topic and scope, excluding superseded ones. */
      findByTopic(topic, scope) {
        const out = [];
        for (const f of this.docs.allFacets()) {
          if (f.topic === topic && f.scope === scope && f.status !== "superseded")
            out.push(this.docs.get(f.id));
        }
        return out;
      }
    };
  }
});

// dist/api/branches.js
var branches_exports = {};
__export(branches_exports, {
  BRANCH_CACHES_KEPT: () => BRANCH_CACHES_KEPT,
  recallBranches: () => recallBranches
});
import { readdirSync as readdirSync3, readFileSync as readFileSync5, rmSync as rmSync4, statSync as statSync5 } from "node:fs";
import { join as join6 } from "node:path";
async function branchIndex(ctx, r, tree, root) {
  const paths = tierPaths(ctx.paths.cortexDir, join6(ctx.paths.cacheDir, "branches", tree.memoriesTree ?? "empty"));
  const cached = KeywordIndex.load(paths);
  if (!cached.rebuilt || tree.memories.size === 0)
    return cached;
  const index = KeywordIndex.empty();
  for (const [id, oid] of tree.memories) {
    const path3 = join6(root, ".cortex", "memories", `${id}.md`);
    let text3;
    try {
      const local = readFileSync5(path3, "utf8");
      if (blobOid(local) === oid)
        text3 = local;
    } catch {
    }
    text3 ??= await readBlobText(r, oid);
    const { memory } = parseMemory(text3, { file: `.cortex/memories/${id}.md`, expectedId: id });
    if (memory)
      index.upsert(memory, { path: path3, id, size: 0, mtimeMs: 0 }, text3, { base: root });
  }
  try {
    index.save(paths);
    pruneBranchCaches(join6(ctx.paths.cacheDir, "branches"));
  } catch {
  }
  return index;
}
function pruneBranchCaches(dir) {
  const entries = readdirSync3(dir).map((name) => ({ name, mtime: statSync5(join6(dir, name)).mtimeMs }));
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const e of entries.slice(BRANCH_CACHES_KEPT))
    rmSync4(join6(dir, e.name), { recursive: true, force: true });
}
async function recallBranches(ctx, input) {
  const root = findGitRoot(ctx.root);
  if (!root)
    throw new GitError("--branch and --all-branches need a git repository.");
  const query = input.query.trim();
  if (query === "")
    throw new UsageError("The query is empty.", { hint: 'Example: cortex recall "database choice" --branch feature' });
  const limit = input.limit ?? ctx.config.recall.limit;
  const options = { ...searchOptionsOf(ctx, input), limit };
  const r = gitReader(root);
  const head = await readHead(root);
  const current = head.commit ? await readCortexTree(r, head.commit) : void 0;
  const { branch: _b, allBranches: _a, ...plain } = input;
  const results = [];
  const diagnostics = [];
  let names;
  if (input.allBranches) {
    const here = await recall(ctx, { ...plain, mode: "keyword" });
    results.push(...here.results);
    diagnostics.push(...here.diagnostics);
    names = (await listBranches(r)).filter((b) => b !== head.branch);
  } else {
    names = [input.branch];
  }
  const seen = new Set(results.map((x) => x.id));
  for (const name of names) {
    const commit2 = await resolveCommit(r, name);
    const tree = await readCortexTree(r, commit2);
    const merged = head.commit ? await isAncestor(r, commit2, head.commit) : false;
    const index = await branchIndex(ctx, r, tree, root);
    for (const hit of index.query(query, options)) {
      const doc = index.docs.get(hit.id);
      if (!doc)
        continue;
      const mine = current?.memories.get(hit.id);
      const inCurrent = mine === void 0 ? "absent" : mine === tree.memories.get(hit.id) ? "same" : "changed";
      if (input.allBranches && (seen.has(hit.id) && inCurrent !== "changed"))
        continue;
      seen.add(hit.id);
      results.push({ ...toResult(doc, hit.score, hit.terms), ref: { branch: name, commit: commit2, merged: merged || inCurrent === "same", inCurrent } });
    }
  }
  results.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { query, mode: "keyword", results: results.slice(0, limit), diagnostics };
}
var BRANCH_CACHES_KEPT;
var init_branches = __esm({
  "dist/api/branches.js"() {
    "use strict";
    init_memory_format();
    init_errors();
    init_head();
    init_repo();
    init_keyword_index();
    init_paths();
    init_recall();
    BRANCH_CACHES_KEPT = 16;
  }
});

// dist/core/fusion.js
function cosine(a, b) {
  if (a.length !== b.length)
    throw new RangeError(`cosine of vectors of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0)
    return 0;
  const value2 = dot / Math.sqrt(na * nb);
  if (Number.isNaN(value2))
    return 0;
  return value2 > 1 ? 1 : value2 < -1 ? -1 : value2;
}
function compareScored(a, b) {
  if (a.score !== b.score)
    return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
function topKByCosine(query, entries, k) {
  const limit = Math.max(0, Math.floor(k));
  const best = [];
  if (limit === 0)
    return best;
  for (const entry of entries) {
    const candidate = { id: entry.id, score: cosine(query, entry.vector) };
    if (best.length === limit && compareScored(candidate, best[limit - 1]) >= 0)
      continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = lo + hi >>> 1;
      if (compareScored(best[mid], candidate) <= 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    best.splice(lo, 0, candidate);
    if (best.length > limit)
      best.pop();
  }
  return best;
}
function reciprocalRankFusion(rankings, options = {}) {
  const { k, weights } = { ...DEFAULT_RRF, ...options };
  if (!(k >= 0) || !Number.isFinite(k))
    throw new RangeError(`RRF k must be a finite number \u2265 0, got ${k}`);
  const contributions = /* @__PURE__ */ new Map();
  rankings.forEach((ranking, listIndex) => {
    const weight = weights?.[listIndex] ?? 1;
    if (!(weight > 0))
      return;
    const seen = /* @__PURE__ */ new Set();
    ranking.forEach((id, position) => {
      if (seen.has(id))
        return;
      seen.add(id);
      const value2 = weight / (k + position + 1);
      const list2 = contributions.get(id);
      if (list2)
        list2.push(value2);
      else
        contributions.set(id, [value2]);
    });
  });
  const fused = [];
  for (const [id, values] of contributions) {
    values.sort((x, y) => y - x);
    let score = 0;
    for (const v of values)
      score += v;
    fused.push({ id, score });
  }
  return fused.sort(compareScored);
}
var DEFAULT_RRF;
var init_fusion = __esm({
  "dist/core/fusion.js"() {
    "use strict";
    DEFAULT_RRF = { k: 60, weights: void 0 };
  }
});

// dist/core/config.js
function isPlainObject(value2) {
  return typeof value2 === "object" && value2 !== null && !Array.isArray(value2);
}
function rangeFor(path3) {
  const direct = RANGES[path3];
  if (direct)
    return direct;
  const wildcard = path3.replace(/\.[^.]+$/, ".*");
  return RANGES[wildcard];
}
function resolveConfig(raw, file = ".cortex/config.yaml") {
  const diagnostics = [];
  if (raw === void 0 || raw === null)
    return { config: structuredClone(DEFAULT_CONFIG), diagnostics };
  if (!isPlainObject(raw)) {
    diagnostics.push({
      file,
      reason: "the config file must be a YAML mapping of keys to values",
      ruleId: "config-shape",
      severity: "error",
      hint: "Example: `surface:\\n  targetTokens: 400`"
    });
    return { config: structuredClone(DEFAULT_CONFIG), diagnostics };
  }
  const config = mergeNode(DEFAULT_CONFIG, raw, "", file, diagnostics);
  if (config.surface.maxTokens < config.surface.targetTokens) {
    diagnostics.push({
      file,
      reason: `surface.maxTokens (${config.surface.maxTokens}) is below surface.targetTokens (${config.surface.targetTokens})`,
      ruleId: "config-range",
      severity: "error",
      hint: "Set surface.maxTokens to at least surface.targetTokens."
    });
    config.surface.maxTokens = config.surface.targetTokens;
  }
  return { config, diagnostics };
}
function mergeNode(def, raw, path3, file, out) {
  if (isPlainObject(def)) {
    if (!isPlainObject(raw)) {
      out.push(typeError(path3, "a mapping", raw, file));
      return structuredClone(def);
    }
    const result = {};
    for (const key of Object.keys(def)) {
      const childPath = path3 === "" ? key : `${path3}.${key}`;
      result[key] = key in raw ? mergeNode(def[key], raw[key], childPath, file, out) : structuredClone(def[key]);
    }
    for (const key of Object.keys(raw)) {
      if (!(key in def)) {
        const childPath = path3 === "" ? key : `${path3}.${key}`;
        out.push({
          file,
          reason: `unknown key "${childPath}"`,
          ruleId: "config-unknown-key",
          severity: "warning",
          hint: `Known keys here: ${Object.keys(def).join(", ")}.`
        });
      }
    }
    return result;
  }
  if (Array.isArray(def)) {
    if (!Array.isArray(raw) || !raw.every((x) => typeof x === "string")) {
      out.push(typeError(path3, "a list of strings", raw, file));
      return structuredClone(def);
    }
    return [...raw];
  }
  if (typeof def === "number" || def === null && path3.startsWith("decay.halfLives.")) {
    if (raw === null && path3.startsWith("decay.halfLives."))
      return null;
    if (typeof raw !== "number" || !Number.isFinite(raw)) {
      out.push(typeError(path3, "a number", raw, file));
      return def;
    }
    const range = rangeFor(path3);
    if (range) {
      const [min, max, int2] = range;
      if (raw < min || raw > max || int2 === "int" && !Number.isInteger(raw)) {
        out.push({
          file,
          reason: `${path3} is ${raw}; allowed: ${int2 === "int" ? "an integer " : ""}from ${min} to ${max}`,
          ruleId: "config-range",
          severity: "error",
          hint: `Set ${path3} to a value from ${min} to ${max}, or remove it to use the default (${String(def)}).`
        });
        return def;
      }
    }
    return raw;
  }
  if (typeof def === "boolean") {
    if (typeof raw !== "boolean") {
      out.push(typeError(path3, "true or false", raw, file));
      return def;
    }
    return raw;
  }
  if (typeof def === "string" || def === null) {
    if (raw === null && def === null)
      return null;
    if (typeof raw !== "string") {
      out.push(typeError(path3, "a string", raw, file));
      return def;
    }
    return raw;
  }
  return def;
}
function typeError(path3, expected, raw, file) {
  const found = JSON.stringify(raw) ?? String(raw);
  return {
    file,
    reason: `${path3} must be ${expected}, found ${found.length > 40 ? `${found.slice(0, 40)}\u2026` : found}`,
    ruleId: "config-type",
    severity: "error",
    hint: `Fix ${path3} in the config file, or remove it to use the default.`
  };
}
function configFingerprint(config) {
  return JSON.stringify(config);
}
var HARD_MAX_CHARS, DEFAULT_CONFIG, RANGES;
var init_config = __esm({
  "dist/core/config.js"() {
    "use strict";
    HARD_MAX_CHARS = 1e4;
    DEFAULT_CONFIG = {
      ranking: {
        weights: { confidence: 0.5, priority: 0.2, centrality: 0.15, usage: 0.15 },
        branchBoost: 0.1
      },
      decay: {
        halfLives: {
          architecture: null,
          decision: null,
          rejected: null,
          code_description: null,
          code: null,
          preference: 90,
          pattern: 60,
          gotcha: 45,
          context: 30,
          plan: 14,
          progress: 7
        },
        accessDoublingThreshold: 10,
        centralityDoublingThreshold: 0.5
      },
      lifecycle: { archiveBelow: 0.3, archiveAfterDays: 14, pruneAfterDays: 30, hubCentrality: 0.5 },
      surface: {
        targetTokens: 400,
        maxTokens: 550,
        maxChars: HARD_MAX_CHARS,
        charsPerToken: 4,
        budgets: {
          architecture: 25,
          decision: 25,
          rejected: 25,
          pattern: 25,
          gotcha: 20,
          progress: 30,
          plan: 30,
          context: 15,
          preference: 15,
          code_description: 10,
          code: 0
        },
        decisions: { fullCap: 50, oneLineCap: 30, recentDays: 30 },
        compactTokens: 200,
        lowConfidenceBelow: 0.7,
        detailChars: 160,
        planShare: 0.5,
        targets: [".claude/cortex-memory.local.md"]
      },
      recall: { limit: 10 },
      extraction: { threshold: 0.7 },
      autolink: { relatesMin: 0.1, suggestedMin: 0.4, consolidateMin: 0.5 },
      embed: { enabled: true, model: "Xenova/all-MiniLM-L6-v2", dtype: "q8", modelDir: null, minSimilarity: 0.2 }
    };
    RANGES = {
      "ranking.weights.confidence": [0, 1],
      "ranking.weights.priority": [0, 1],
      "ranking.weights.centrality": [0, 1],
      "ranking.weights.usage": [0, 1],
      "ranking.branchBoost": [0, 1],
      "decay.halfLives.*": [0.01, 1e5],
      "decay.accessDoublingThreshold": [0, 1e6, "int"],
      "decay.centralityDoublingThreshold": [0, 1],
      "lifecycle.archiveBelow": [0, 1],
      "lifecycle.archiveAfterDays": [0, 36500],
      "lifecycle.pruneAfterDays": [0, 36500],
      "lifecycle.hubCentrality": [0, 1],
      "surface.targetTokens": [10, 2500, "int"],
      "surface.maxTokens": [10, 2500, "int"],
      "surface.maxChars": [100, HARD_MAX_CHARS, "int"],
      "surface.charsPerToken": [1, 10],
      "surface.budgets.*": [0, 500, "int"],
      "surface.decisions.fullCap": [0, 1e4, "int"],
      "surface.decisions.oneLineCap": [0, 1e4, "int"],
      "surface.decisions.recentDays": [0, 36500],
      "surface.compactTokens": [10, 2500, "int"],
      "surface.lowConfidenceBelow": [0, 1],
      "surface.detailChars": [0, 2e3, "int"],
      "surface.planShare": [0, 1],
      "recall.limit": [1, 1e3, "int"],
      "extraction.threshold": [0, 1],
      "autolink.relatesMin": [0, 1],
      "autolink.suggestedMin": [0, 1],
      "autolink.consolidateMin": [0, 1],
      "embed.minSimilarity": [-1, 1]
    };
  }
});

// dist/embed/embedder.js
var embedder_exports = {};
__export(embedder_exports, {
  DEFAULT_EMBEDDING_TEXT: () => DEFAULT_EMBEDDING_TEXT,
  DEFAULT_QUERY_EMBEDDING_TEXT: () => DEFAULT_QUERY_EMBEDDING_TEXT,
  DEFAULT_RESOLVE_EMBED: () => DEFAULT_RESOLVE_EMBED,
  EMBED_UNAVAILABLE: () => EMBED_UNAVAILABLE,
  EmbedUnavailableError: () => EmbedUnavailableError,
  embeddingText: () => embeddingText,
  isEmbeddable: () => isEmbeddable,
  modelIdentity: () => modelIdentity,
  queryEmbeddingText: () => queryEmbeddingText,
  resolveEmbedOptions: () => resolveEmbedOptions
});
function embeddingText(memory, options = {}) {
  const { project, maxChars } = { ...DEFAULT_EMBEDDING_TEXT, ...options };
  const name = project?.trim();
  const head = name ? `[${memory.type}] [project:${name}] ` : `[${memory.type}] `;
  const summary = memory.summary.trim();
  const body = memory.body.trim();
  const text3 = body === "" ? `${head}${summary}` : `${head}${summary}
${body}`;
  return text3.length > maxChars ? text3.slice(0, maxChars) : text3;
}
function queryEmbeddingText(query, options = {}) {
  const { project, type, maxChars } = { ...DEFAULT_QUERY_EMBEDDING_TEXT, ...options };
  const name = project?.trim();
  const text3 = `${type ? `[${type}] ` : ""}${name ? `[project:${name}] ` : ""}${query.trim()}`;
  return text3.length > maxChars ? text3.slice(0, maxChars) : text3;
}
function modelIdentity(options) {
  return `${options.model}:${options.dtype}`;
}
function isEmbeddable(memory) {
  return memory.type !== "code";
}
function envValue(env, name) {
  const value2 = env[name]?.trim();
  return value2 === void 0 || value2 === "" ? void 0 : value2;
}
function resolveEmbedOptions(input = {}) {
  const { env, config } = { ...DEFAULT_RESOLVE_EMBED, ...input };
  const base = config?.embed ?? DEFAULT_CONFIG.embed;
  const toggle = envValue(env, "CORTEX_EMBED")?.toLowerCase();
  const enabled = toggle !== void 0 && FALSY.has(toggle) ? false : toggle !== void 0 && TRUTHY.has(toggle) ? true : base.enabled;
  return {
    model: envValue(env, "CORTEX_EMBED_MODEL") ?? (base.model.trim() || DEFAULT_CONFIG.embed.model),
    dtype: envValue(env, "CORTEX_EMBED_DTYPE") ?? (base.dtype.trim() || DEFAULT_CONFIG.embed.dtype),
    modelDir: envValue(env, "CORTEX_MODEL_DIR") ?? (base.modelDir?.trim() || void 0),
    enabled
  };
}
var EMBED_UNAVAILABLE, EmbedUnavailableError, DEFAULT_EMBEDDING_TEXT, DEFAULT_QUERY_EMBEDDING_TEXT, DEFAULT_RESOLVE_EMBED, FALSY, TRUTHY;
var init_embedder = __esm({
  "dist/embed/embedder.js"() {
    "use strict";
    init_errors();
    init_config();
    EMBED_UNAVAILABLE = "EMBED_UNAVAILABLE";
    EmbedUnavailableError = class extends CortexError {
      constructor(message, options = {}) {
        super(EMBED_UNAVAILABLE, message, options);
      }
    };
    DEFAULT_EMBEDDING_TEXT = { project: void 0, maxChars: 4e3 };
    DEFAULT_QUERY_EMBEDDING_TEXT = { project: void 0, type: void 0, maxChars: 1e3 };
    DEFAULT_RESOLVE_EMBED = { env: {}, config: void 0 };
    FALSY = /* @__PURE__ */ new Set(["0", "false", "off", "no"]);
    TRUTHY = /* @__PURE__ */ new Set(["1", "true", "on", "yes"]);
  }
});

// dist/search/vectors.js
var vectors_exports = {};
__export(vectors_exports, {
  DEFAULT_EMBED_MISSING: () => DEFAULT_EMBED_MISSING,
  DEFAULT_VECTOR_CACHE: () => DEFAULT_VECTOR_CACHE,
  VECTOR_CACHE_MAGIC: () => VECTOR_CACHE_MAGIC,
  VECTOR_CACHE_VERSION: () => VECTOR_CACHE_VERSION,
  VectorCache: () => VectorCache,
  embedMissing: () => embedMissing,
  loadVectorCache: () => loadVectorCache,
  renderVectorCache: () => renderVectorCache,
  saveVectorCache: () => saveVectorCache
});
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { endianness } from "node:os";
import path from "node:path";
import * as zlib from "node:zlib";
function pad4(n) {
  return n + 3 & ~3;
}
function decodeVectors(buf, offset, floats) {
  const byteOffset = buf.byteOffset + offset;
  if (LITTLE_ENDIAN && byteOffset % 4 === 0)
    return new Float32Array(buf.buffer, byteOffset, floats);
  if (LITTLE_ENDIAN)
    return new Float32Array(buf.buffer.slice(byteOffset, byteOffset + floats * 4));
  const view = new DataView(buf.buffer, byteOffset, floats * 4);
  const out = new Float32Array(floats);
  for (let i = 0; i < floats; i++)
    out[i] = view.getFloat32(i * 4, true);
  return out;
}
function parseVectorFile(buf, options) {
  const corrupt = () => new VectorCache({ ...options, status: "corrupt" });
  if (buf.length < HEADER_BYTES || buf.toString("latin1", 0, 5) !== VECTOR_CACHE_MAGIC)
    return corrupt();
  if (buf[5] !== VECTOR_CACHE_VERSION)
    return new VectorCache({ ...options, status: "stale" });
  const dims = buf.readUInt32LE(8);
  const count2 = buf.readUInt32LE(12);
  const modelBytes = buf.readUInt32LE(16);
  const keyBytes = buf.readUInt32LE(20);
  const crc = buf.readUInt32LE(24);
  const vectorOffset = pad4(HEADER_BYTES + modelBytes + keyBytes);
  if (buf.length !== vectorOffset + count2 * dims * 4 || count2 > 0 && dims === 0)
    return corrupt();
  if (crc !== 0 && crc32 !== void 0 && crc32(buf.subarray(HEADER_BYTES)) !== crc)
    return corrupt();
  const model = buf.toString("utf8", HEADER_BYTES, HEADER_BYTES + modelBytes);
  if (model !== options.model || options.dims !== void 0 && count2 > 0 && dims !== options.dims) {
    return new VectorCache({ ...options, status: "stale" });
  }
  const keyEnd = HEADER_BYTES + modelBytes + keyBytes;
  for (let i = keyEnd; i < vectorOffset; i++)
    if (buf[i] !== 0)
      return corrupt();
  const nul = buf.indexOf(0, HEADER_BYTES + modelBytes);
  if (nul !== -1 && nul < keyEnd)
    return corrupt();
  const keys = count2 === 0 ? [] : buf.toString("utf8", HEADER_BYTES + modelBytes, keyEnd).split("\n");
  if (keys.length !== count2)
    return corrupt();
  const all = decodeVectors(buf, vectorOffset, count2 * dims);
  const vectors = /* @__PURE__ */ new Map();
  for (let i = 0; i < count2; i++)
    vectors.set(keys[i], all.subarray(i * dims, (i + 1) * dims));
  if (vectors.size !== count2)
    return corrupt();
  return VectorCache.fromLoaded(model, count2 > 0 ? dims : options.dims ?? (dims > 0 ? dims : void 0), vectors);
}
async function loadVectorCache(file, options = {}) {
  const opts = { ...DEFAULT_VECTOR_CACHE, ...options };
  let buf;
  try {
    buf = await readFile(file);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "ENOTDIR"))
      return new VectorCache({ ...opts, status: "missing" });
    if (isErrnoCode(err, "EISDIR"))
      return new VectorCache({ ...opts, status: "corrupt" });
    throw err;
  }
  return parseVectorFile(buf, opts);
}
function renderVectorCache(cache2) {
  const keys = [...cache2.keys()].sort();
  const dims = keys.length === 0 ? cache2.dims ?? 0 : cache2.dims;
  const model = Buffer.from(cache2.model, "utf8");
  const keyBlock = Buffer.from(keys.join("\n"), "utf8");
  const vectorOffset = pad4(HEADER_BYTES + model.length + keyBlock.length);
  const buf = Buffer.alloc(vectorOffset + keys.length * dims * 4);
  buf.write(VECTOR_CACHE_MAGIC, 0, "latin1");
  buf[5] = VECTOR_CACHE_VERSION;
  buf.writeUInt32LE(dims, 8);
  buf.writeUInt32LE(keys.length, 12);
  buf.writeUInt32LE(model.length, 16);
  buf.writeUInt32LE(keyBlock.length, 20);
  model.copy(buf, HEADER_BYTES);
  keyBlock.copy(buf, HEADER_BYTES + model.length);
  const floats = LITTLE_ENDIAN ? new Float32Array(buf.buffer, buf.byteOffset + vectorOffset, keys.length * dims) : void 0;
  const view = floats ? void 0 : new DataView(buf.buffer, buf.byteOffset + vectorOffset);
  keys.forEach((key, i) => {
    const vector = cache2.get(key);
    if (floats)
      floats.set(vector, i * dims);
    else
      for (let j = 0; j < dims; j++)
        view?.setFloat32((i * dims + j) * 4, vector[j] ?? 0, true);
  });
  if (crc32 !== void 0)
    buf.writeUInt32LE(crc32(buf.subarray(HEADER_BYTES)), 24);
  return buf;
}
async function saveVectorCache(file, cache2) {
  const bytes = renderVectorCache(cache2);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    const handle = await open(temp, "w");
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => void 0);
    throw err;
  }
  cache2[markSaved]();
}
async function embedMissing(options) {
  const { items, cache: cache2, embedder, batchSize, onProgress, signal, checkpoint, checkpointEvery } = { ...DEFAULT_EMBED_MISSING, ...options };
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  if (embedder.dims !== void 0 && cache2.dims !== void 0 && embedder.dims !== cache2.dims)
    cache2.clear();
  const texts = /* @__PURE__ */ new Map();
  for (const item of items)
    if (!texts.has(item.hash))
      texts.set(item.hash, item.text);
  const missing = [...texts.keys()].filter((hash) => !cache2.has(hash));
  const result = { total: texts.size, cached: texts.size - missing.length, embedded: 0, aborted: false };
  if (missing.length === 0)
    return result;
  onProgress?.({ phase: "embed", done: 0, total: missing.length });
  let sinceCheckpoint = 0;
  for (let start = 0; start < missing.length; start += batchSize) {
    if (signal?.aborted) {
      result.aborted = true;
      break;
    }
    const batch = missing.slice(start, start + batchSize);
    const vectors = await embedder.embed(batch.map((hash) => texts.get(hash)));
    if (vectors.length !== batch.length) {
      throw new InternalError(`embedder ${embedder.model} returned ${vectors.length} vectors for ${batch.length} texts`);
    }
    batch.forEach((hash, i) => cache2.set(hash, vectors[i]));
    result.embedded += batch.length;
    if (++sinceCheckpoint >= checkpointEvery || result.embedded === missing.length) {
      sinceCheckpoint = 0;
      await checkpoint?.();
    }
    onProgress?.({ phase: "embed", done: result.embedded, total: missing.length });
  }
  if (result.aborted && sinceCheckpoint > 0)
    await checkpoint?.();
  return result;
}
var VECTOR_CACHE_MAGIC, VECTOR_CACHE_VERSION, HEADER_BYTES, LITTLE_ENDIAN, crc32, DEFAULT_VECTOR_CACHE, markSaved, VectorCache, tempCounter, DEFAULT_EMBED_MISSING;
var init_vectors = __esm({
  "dist/search/vectors.js"() {
    "use strict";
    init_errors();
    VECTOR_CACHE_MAGIC = "CXVEC";
    VECTOR_CACHE_VERSION = 1;
    HEADER_BYTES = 32;
    LITTLE_ENDIAN = endianness() === "LE";
    crc32 = zlib.crc32;
    DEFAULT_VECTOR_CACHE = { model: "", dims: void 0 };
    markSaved = Symbol("markSaved");
    VectorCache = class _VectorCache {
      model;
      status;
      #dims;
      #vectors = /* @__PURE__ */ new Map();
      #dirty = false;
      constructor(options = {}) {
        const { model, dims } = { ...DEFAULT_VECTOR_CACHE, ...options };
        this.model = model;
        this.#dims = dims;
        this.status = options.status ?? "new";
      }
      /** Vector length: fixed by the options, the loaded file, or the first `set`. */
      get dims() {
        return this.#dims;
      }
      get size() {
        return this.#vectors.size;
      }
      /** True when the cache differs from what was last loaded or saved. */
      get dirty() {
        return this.#dirty;
      }
      get(hash) {
        return this.#vectors.get(hash);
      }
      has(hash) {
        return this.#vectors.has(hash);
      }
      /** @throws RangeError for an empty key, a key with a newline, or a vector of the wrong length. */
      set(hash, vector) {
        if (hash === "" || hash.includes("\n"))
          throw new RangeError(`invalid vector cache key ${JSON.stringify(hash)}`);
        if (this.#dims === void 0) {
          if (vector.length === 0)
            throw new RangeError("cannot cache an empty vector");
          this.#dims = vector.length;
        } else if (vector.length !== this.#dims) {
          throw new RangeError(`vector of length ${vector.length} in a cache of ${this.#dims} dimensions`);
        }
        this.#vectors.set(hash, vector);
        this.#dirty = true;
      }
      delete(hash) {
        const removed = this.#vectors.delete(hash);
        if (removed)
          this.#dirty = true;
        return removed;
      }
      /** Drops every entry and forgets the dimensions. */
      clear() {
        if (this.#vectors.size > 0)
          this.#dirty = true;
        this.#vectors.clear();
        this.#dims = void 0;
      }
      /** Removes entries whose hash is not live; returns how many were removed. */
      prune(liveHashes) {
        const live = liveHashes instanceof Set ? liveHashes : new Set(liveHashes);
        let removed = 0;
        for (const hash of this.#vectors.keys()) {
          if (!live.has(hash)) {
            this.#vectors.delete(hash);
            removed++;
          }
        }
        if (removed > 0)
          this.#dirty = true;
        return removed;
      }
      keys() {
        return this.#vectors.keys();
      }
      entries() {
        return this.#vectors.entries();
      }
      /** @internal used by `loadVectorCache` to fill without marking dirty. */
      static fromLoaded(model, dims, vectors) {
        const cache2 = new _VectorCache({ model, dims, status: "loaded" });
        cache2.#vectors = vectors;
        return cache2;
      }
      [markSaved]() {
        this.#dirty = false;
      }
    };
    tempCounter = 0;
    DEFAULT_EMBED_MISSING = {
      batchSize: 32,
      onProgress: void 0,
      signal: void 0,
      checkpoint: void 0,
      checkpointEvery: 1
    };
  }
});

// dist/embed/transformers.js
var transformers_exports = {};
__export(transformers_exports, {
  DEFAULT_TRANSFORMERS_EMBEDDER: () => DEFAULT_TRANSFORMERS_EMBEDDER,
  EmbedUnavailableError: () => EmbedUnavailableError,
  loadTransformersEmbedder: () => loadTransformersEmbedder
});
import { createRequire as createRequire2 } from "node:module";
import { readFile as readFile2, stat } from "node:fs/promises";
import path2 from "node:path";
function oneLine(value2, max = 200) {
  const text3 = (value2 instanceof Error ? value2.message : String(value2)).replace(/\s+/g, " ").trim();
  return text3.length > max ? `${text3.slice(0, max - 1)}\u2026` : text3;
}
async function isFile(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
async function importTransformers(packageName) {
  try {
    return await import(packageName);
  } catch (err) {
    let installed = true;
    try {
      createRequire2(import.meta.url).resolve(packageName);
    } catch {
      installed = false;
    }
    if (!installed) {
      throw new EmbedUnavailableError(`${packageName} is not installed (install without --omit=optional)`, {
        hint: "Run `npm install` without --omit=optional (offline: ONNXRUNTIME_NODE_INSTALL=skip), or set CORTEX_EMBED=0 for keyword-only recall.",
        cause: err
      });
    }
    throw new EmbedUnavailableError(`${packageName} failed to load: ${oneLine(err)}`, {
      hint: "Reinstall dependencies with `npm install` (onnxruntime-node ships the CPU binaries), or set CORTEX_EMBED=0.",
      cause: err
    });
  }
}
async function diagnoseLocalModel(modelDir, model, dtype, cause) {
  const root = path2.join(modelDir, model);
  const fixHint = `Put the model files (config.json, tokenizer.json, tokenizer_config.json, onnx/model${DTYPE_SUFFIX[dtype] ?? ""}.onnx) under ${root}, point CORTEX_MODEL_DIR elsewhere, or unset it to download ${model}.`;
  const jsonFiles = ["config.json", "tokenizer.json", "tokenizer_config.json"];
  for (const name of jsonFiles) {
    const file = path2.join(root, name);
    let text3;
    try {
      text3 = await readFile2(file, "utf8");
    } catch {
      if (name === "tokenizer_config.json")
        continue;
      return new EmbedUnavailableError(`model file not found: ${file} (CORTEX_MODEL_DIR=${modelDir})`, { hint: fixHint, cause, data: { file } });
    }
    try {
      JSON.parse(text3);
    } catch {
      return new EmbedUnavailableError(`broken model file ${file}: not valid JSON`, {
        hint: `Replace ${file} with a good copy of ${model}, or unset CORTEX_MODEL_DIR to download the model.`,
        cause,
        data: { file }
      });
    }
  }
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix !== void 0) {
    const onnx = path2.join(root, "onnx", `model${suffix}.onnx`);
    if (!await isFile(onnx)) {
      return new EmbedUnavailableError(`model file not found: ${onnx} (dtype ${dtype}; CORTEX_MODEL_DIR=${modelDir})`, {
        hint: `Add onnx/model${suffix}.onnx to ${root}, or set CORTEX_EMBED_DTYPE to a dtype whose file is there.`,
        cause,
        data: { file: onnx }
      });
    }
    return new EmbedUnavailableError(`broken model file ${onnx}: the ONNX runtime cannot load it`, {
      hint: `Replace ${onnx} with a good copy of ${model}, or unset CORTEX_MODEL_DIR to download the model.`,
      cause,
      data: { file: onnx }
    });
  }
  return new EmbedUnavailableError(`cannot load model ${model} from ${modelDir}: ${oneLine(cause, 120)}`, { hint: fixHint, cause });
}
async function createPipeline(lib, options) {
  const { model, dtype } = options;
  pristine ??= {
    localModelPath: lib.env.localModelPath,
    allowRemoteModels: lib.env.allowRemoteModels,
    allowLocalModels: lib.env.allowLocalModels
  };
  lib.env.logLevel = lib.LogLevel?.ERROR ?? 40;
  const modelDir = options.modelDir === void 0 ? void 0 : path2.resolve(options.modelDir);
  if (modelDir === void 0) {
    Object.assign(lib.env, pristine);
  } else {
    const dirStat = await stat(modelDir).catch(() => void 0);
    if (!dirStat?.isDirectory()) {
      throw new EmbedUnavailableError(`model directory not found: ${modelDir} (CORTEX_MODEL_DIR)`, {
        hint: `Create ${modelDir} with ${model}/ inside it, set CORTEX_MODEL_DIR to an existing model directory, or unset it to download the model.`,
        data: { modelDir }
      });
    }
    lib.env.localModelPath = modelDir;
    lib.env.allowRemoteModels = false;
    lib.env.allowLocalModels = true;
  }
  try {
    return await lib.pipeline("feature-extraction", model, { dtype });
  } catch (err) {
    if (modelDir !== void 0)
      throw await diagnoseLocalModel(modelDir, model, dtype, err);
    throw new EmbedUnavailableError(`cannot load embedding model ${model}: ${oneLine(err, 160)}`, {
      hint: "Connect to the network once (the model is cached after the first download), or set CORTEX_MODEL_DIR to a local copy.",
      cause: err
    });
  }
}
function splitRows(out, expected) {
  const [rows, dims] = out.dims;
  if (out.dims.length !== 2 || rows !== expected || dims === void 0 || dims <= 0) {
    throw new EmbedUnavailableError(`the model returned a tensor of shape [${out.dims.join(", ")}], expected [${expected}, dims]`, {
      hint: "Use a sentence-embedding (feature-extraction) model such as Xenova/all-MiniLM-L6-v2."
    });
  }
  const data = out.data instanceof Float32Array ? out.data : Float32Array.from(out.data);
  const vectors = [];
  for (let r = 0; r < rows; r++)
    vectors.push(data.slice(r * dims, (r + 1) * dims));
  return vectors;
}
async function loadTransformersEmbedder(options = {}) {
  const opts = { ...DEFAULT_TRANSFORMERS_EMBEDDER, ...options };
  if (!DTYPES.includes(opts.dtype)) {
    throw new EmbedUnavailableError(`unknown embedding dtype "${opts.dtype}" (CORTEX_EMBED_DTYPE)`, {
      hint: `Use one of: ${DTYPES.join(", ")}.`
    });
  }
  if (!Number.isInteger(opts.batchSize) || opts.batchSize < 1) {
    throw new RangeError(`batchSize must be a positive integer, got ${opts.batchSize}`);
  }
  const lib = await importTransformers(opts.packageName);
  const load = loadQueue.then(() => createPipeline(lib, opts));
  loadQueue = load.catch(() => void 0);
  const extractor = await load;
  const run = async (texts) => {
    try {
      return splitRows(await extractor(texts, { pooling: "mean", normalize: true }), texts.length);
    } catch (err) {
      if (err instanceof EmbedUnavailableError)
        throw err;
      throw new EmbedUnavailableError(`embedding with ${opts.model} failed: ${oneLine(err, 160)}`, {
        hint: "Check the model files, or set CORTEX_EMBED=0 for keyword-only recall.",
        cause: err
      });
    }
  };
  let dims;
  try {
    const [probe] = await run(["probe"]);
    dims = probe?.length ?? 0;
  } catch (err) {
    await extractor.dispose?.().catch(() => void 0);
    throw err;
  }
  let disposed = false;
  return {
    // dtype is part of the identity: q8 and fp32 vectors of one model differ.
    model: modelIdentity(opts),
    dims,
    async embed(texts) {
      if (disposed)
        throw new EmbedUnavailableError("the embedder was disposed", { hint: "Load a new embedder." });
      const vectors = [];
      for (let i = 0; i < texts.length; i += opts.batchSize) {
        vectors.push(...await run(texts.slice(i, i + opts.batchSize)));
        opts.onProgress?.({ phase: "embed", done: vectors.length, total: texts.length });
      }
      return vectors;
    },
    async dispose() {
      if (disposed)
        return;
      disposed = true;
      await extractor.dispose?.();
    }
  };
}
var PACKAGE, DEFAULT_TRANSFORMERS_EMBEDDER, DTYPE_SUFFIX, DTYPES, pristine, loadQueue;
var init_transformers = __esm({
  "dist/embed/transformers.js"() {
    "use strict";
    init_embedder();
    init_embedder();
    PACKAGE = "@huggingface/transformers";
    DEFAULT_TRANSFORMERS_EMBEDDER = {
      model: "Xenova/all-MiniLM-L6-v2",
      dtype: "q8",
      modelDir: void 0,
      batchSize: 32,
      onProgress: void 0,
      packageName: PACKAGE
    };
    DTYPE_SUFFIX = {
      fp32: "",
      fp16: "_fp16",
      int8: "_int8",
      uint8: "_uint8",
      q8: "_quantized",
      q4: "_q4",
      q4f16: "_q4f16",
      bnb4: "_bnb4",
      q2: "_q2",
      q2f16: "_q2f16",
      q1: "_q1",
      q1f16: "_q1f16"
    };
    DTYPES = ["auto", ...Object.keys(DTYPE_SUFFIX)];
    loadQueue = Promise.resolve();
  }
});

// dist/search/vector-header.js
import { closeSync as closeSync2, openSync as openSync2, readSync as readSync2 } from "node:fs";
function readVectorFileHeader(file) {
  let fd;
  try {
    fd = openSync2(file, "r");
  } catch {
    return void 0;
  }
  try {
    const head = Buffer.alloc(HEADER_BYTES2);
    if (readSync2(fd, head, 0, HEADER_BYTES2, 0) !== HEADER_BYTES2 || head.toString("latin1", 0, 5) !== MAGIC)
      return void 0;
    const modelBytes = head.readUInt32LE(16);
    if (modelBytes > MAX_MODEL_BYTES)
      return void 0;
    const model = Buffer.alloc(modelBytes);
    if (readSync2(fd, model, 0, modelBytes, HEADER_BYTES2) !== modelBytes)
      return void 0;
    return { version: head[5] ?? 0, dims: head.readUInt32LE(8), count: head.readUInt32LE(12), model: model.toString("utf8") };
  } catch {
    return void 0;
  } finally {
    closeSync2(fd);
  }
}
var MAGIC, HEADER_BYTES2, MAX_MODEL_BYTES;
var init_vector_header = __esm({
  "dist/search/vector-header.js"() {
    "use strict";
    MAGIC = "CXVEC";
    HEADER_BYTES2 = 32;
    MAX_MODEL_BYTES = 4096;
  }
});

// dist/api/embed-settings.js
import { existsSync as existsSync3 } from "node:fs";
import { isAbsolute, join as join7, resolve as resolve2 } from "node:path";
function embedSettings(ctx) {
  const options = resolveEmbedOptions({ env: ctx.env, config: ctx.config });
  const fromEnv = (ctx.env.CORTEX_MODEL_DIR ?? "").trim() !== "";
  const modelDir = options.modelDir === void 0 ? void 0 : isAbsolute(options.modelDir) ? options.modelDir : resolve2(ctx.root, options.modelDir);
  return {
    ...options,
    modelDir,
    modelDirSource: options.modelDir === void 0 ? void 0 : fromEnv ? "env" : "config",
    identity: ctx.embedder?.model ?? modelIdentity(options),
    minSimilarity: ctx.config.embed.minSimilarity
  };
}
function vectorsFile(paths) {
  return join7(paths.cacheDir, VECTORS_FILE);
}
function hasVectors(ctx, options = {}) {
  const settings = embedSettings(ctx);
  if (!settings.enabled)
    return false;
  const tiers = [];
  if (options.scope !== "global")
    tiers.push(ctx.paths);
  if (options.scope !== "project" && ctx.includeGlobal)
    tiers.push(ctx.global);
  return tiers.some((paths) => {
    const file = vectorsFile(paths);
    if (!existsSync3(file))
      return false;
    const header = readVectorFileHeader(file);
    return header !== void 0 && header.count > 0 && header.model === settings.identity;
  });
}
var VECTORS_FILE;
var init_embed_settings = __esm({
  "dist/api/embed-settings.js"() {
    "use strict";
    init_embedder();
    init_vector_header();
    VECTORS_FILE = "vectors.bin";
  }
});

// dist/core/edge.js
function relationKey(text3) {
  return text3.trim().replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[\s\-._]+/g, "_").replace(/^_+|_+$/g, "");
}
function resolveRelation(text3) {
  if (RELATION_SET.has(text3))
    return { relation: text3, reversed: false };
  const key = relationKey(text3);
  if (RELATION_SET.has(key))
    return { relation: key, reversed: false };
  if (Object.hasOwn(RELATION_ALIASES, key))
    return { relation: RELATION_ALIASES[key], reversed: false };
  if (Object.hasOwn(REVERSED_RELATION_ALIASES, key)) {
    return { relation: REVERSED_RELATION_ALIASES[key], reversed: true };
  }
  return void 0;
}
function normalizeRelation(text3) {
  const resolved = resolveRelation(text3);
  return resolved && !resolved.reversed ? resolved.relation : void 0;
}
function isRelation(value2) {
  return typeof value2 === "string" && RELATION_SET.has(value2);
}
function isEdgeStatus(value2) {
  return typeof value2 === "string" && EDGE_STATUSES.includes(value2);
}
function isEdgeOrigin(value2) {
  return typeof value2 === "string" && EDGE_ORIGINS.includes(value2);
}
function checkEdgeId(id) {
  const unsafe = checkIdSafety(id);
  if (unsafe)
    return unsafe;
  if (id.includes("--"))
    return 'contains "--", the edge file-name separator';
  return void 0;
}
function edgeFileName(key) {
  for (const id of [key.source, key.target]) {
    const problem = checkEdgeId(id);
    if (problem)
      throw new RangeError(`edge endpoint "${id.slice(0, 60)}" ${problem}`);
  }
  if (!isRelation(key.relation))
    throw new RangeError(`"${String(key.relation)}" is not a relation`);
  return `${key.source}--${key.relation}--${key.target}.md`;
}
function parseEdgeFileName(name) {
  const match = FILE_NAME_PATTERN.exec(name);
  if (!match)
    return void 0;
  const [, source, relation, target] = match;
  if (checkEdgeId(source) !== void 0 || checkEdgeId(target) !== void 0)
    return void 0;
  return { source, relation, target };
}
function edgeId(key) {
  return `${key.source}--${key.relation}--${key.target}`;
}
function buildEdge(options) {
  const o = { ...DEFAULT_EDGE, ...options };
  return {
    source: o.source,
    target: o.target,
    relation: o.relation,
    strength: o.strength,
    status: o.status,
    bidirectional: o.bidirectional,
    origin: o.origin,
    created: o.created,
    body: o.body,
    extra: { ...o.extra ?? {} }
  };
}
var RELATIONS, EDGE_STATUSES, EDGE_ORIGINS, EDGE_KEY_ORDER, RELATION_ALIASES, REVERSED_RELATION_ALIASES, RELATION_SET, FILE_NAME_PATTERN, WIKILINK_STRENGTH, DEFAULT_EDGE;
var init_edge = __esm({
  "dist/core/edge.js"() {
    "use strict";
    init_memory();
    RELATIONS = [
      "relates_to",
      "derived_from",
      "contradicts",
      "exemplifies",
      "refines",
      "supersedes",
      "source_of"
    ];
    EDGE_STATUSES = ["active", "suggested"];
    EDGE_ORIGINS = ["manual", "jaccard", "embedding", "wikilink", "consolidation", "code_index"];
    EDGE_KEY_ORDER = [
      "source",
      "target",
      "relation",
      "strength",
      "status",
      "bidirectional",
      "origin",
      "created"
    ];
    RELATION_ALIASES = {
      related: "relates_to",
      relates: "relates_to",
      relate: "relates_to",
      related_to: "relates_to",
      relate_to: "relates_to",
      related_with: "relates_to",
      relates_with: "relates_to",
      see_also: "relates_to",
      links_to: "relates_to",
      linked_to: "relates_to",
      link: "relates_to",
      associated_with: "relates_to",
      similar_to: "relates_to",
      references: "relates_to",
      mentions: "relates_to",
      derives: "derived_from",
      derived: "derived_from",
      derive: "derived_from",
      derive_from: "derived_from",
      derives_from: "derived_from",
      based_on: "derived_from",
      builds_on: "derived_from",
      follows_from: "derived_from",
      inspired_by: "derived_from",
      contradict: "contradicts",
      contradiction: "contradicts",
      contradiction_of: "contradicts",
      conflicts_with: "contradicts",
      conflict_with: "contradicts",
      conflicts: "contradicts",
      conflict: "contradicts",
      disagrees_with: "contradicts",
      inconsistent_with: "contradicts",
      example: "exemplifies",
      example_of: "exemplifies",
      exemplify: "exemplifies",
      is_example_of: "exemplifies",
      instance_of: "exemplifies",
      illustrates: "exemplifies",
      demonstrates: "exemplifies",
      refine: "refines",
      refinement: "refines",
      refinement_of: "refines",
      elaborates: "refines",
      elaborates_on: "refines",
      clarifies: "refines",
      narrows: "refines",
      specializes: "refines",
      extends: "refines",
      supersede: "supersedes",
      replaces: "supersedes",
      replace: "supersedes",
      obsoletes: "supersedes",
      deprecates: "supersedes",
      overrides: "supersedes",
      source: "source_of",
      source_for: "source_of",
      is_source_of: "source_of",
      origin_of: "source_of",
      described_by: "source_of",
      documented_by: "source_of"
    };
    REVERSED_RELATION_ALIASES = {
      superseded_by: "supersedes",
      replaced_by: "supersedes",
      obsoleted_by: "supersedes",
      deprecated_by: "supersedes",
      overridden_by: "supersedes",
      derivation_of: "derived_from",
      basis_for: "derived_from",
      basis_of: "derived_from",
      contradicted_by: "contradicts",
      exemplified_by: "exemplifies",
      has_example: "exemplifies",
      illustrated_by: "exemplifies",
      refined_by: "refines",
      elaborated_by: "refines",
      extended_by: "refines",
      describes: "source_of",
      documents: "source_of",
      has_source: "source_of",
      sourced_from: "source_of"
    };
    RELATION_SET = new Set(RELATIONS);
    FILE_NAME_PATTERN = new RegExp(`^(.+)--(${RELATIONS.join("|")})--(.+)\\.md$`);
    WIKILINK_STRENGTH = 0.5;
    DEFAULT_EDGE = {
      strength: 0.5,
      status: "active",
      bidirectional: false,
      origin: "manual",
      body: ""
    };
  }
});

// dist/core/wikilinks.js
function literalRanges(tree) {
  const ranges = [];
  const visit = (node2) => {
    if (LITERAL_TYPES.has(node2.type)) {
      const start = node2.position?.start.offset;
      const end = node2.position?.end.offset;
      if (start !== void 0 && end !== void 0)
        ranges.push([start, end]);
      return;
    }
    if ("children" in node2)
      for (const child of node2.children)
        visit(child);
  };
  visit(tree);
  return ranges;
}
function linkTarget(inner) {
  const id = inner.split("|")[0].split("#")[0].trim();
  return checkIdSafety(id) === void 0 ? id : void 0;
}
function extractWikilinks(body) {
  if (!body.includes("[["))
    return [];
  const parser2 = MAY_HOLD_LITERALS.test(body) ? loadMarkdownParser() : void 0;
  const ranges = parser2 ? literalRanges(parser2.parse(body)) : [];
  const ids = [];
  const seen = /* @__PURE__ */ new Set();
  let r = 0;
  for (const match of body.matchAll(WIKILINK)) {
    const at = match.index;
    while (r < ranges.length && ranges[r][1] <= at)
      r++;
    const range = ranges[r];
    if (range && range[0] <= at)
      continue;
    const id = linkTarget(match[1]);
    if (id !== void 0 && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}
var WIKILINK, MAY_HOLD_LITERALS, LITERAL_TYPES;
var init_wikilinks = __esm({
  "dist/core/wikilinks.js"() {
    "use strict";
    init_lazy();
    init_memory();
    init_edge();
    WIKILINK = /\[\[([^[\]\n]+)\]\]/g;
    MAY_HOLD_LITERALS = /[`<\t]|~~~| {4}/;
    LITERAL_TYPES = /* @__PURE__ */ new Set(["code", "inlineCode", "html"]);
  }
});

// dist/api/indexes.js
import { existsSync as existsSync4 } from "node:fs";
function setLinkExtractor(fn) {
  linkExtractor = fn;
}
function currentLinkExtractor() {
  return linkExtractor;
}
function tierBase(ctx, scope) {
  return scope === "project" ? ctx.root : ctx.global.cortexDir;
}
function openTierIndex(ctx, scope, options = {}) {
  const paths = scope === "project" ? ctx.paths : ctx.global;
  const base = tierBase(ctx, scope);
  let byScope = loaded.get(ctx);
  if (!byScope)
    loaded.set(ctx, byScope = /* @__PURE__ */ new Map());
  const index = options.rebuild ? KeywordIndex.empty() : byScope.get(scope) ?? KeywordIndex.load(paths);
  byScope.set(scope, index);
  const report = index.refresh(paths, { base, ...linkExtractor ? { links: linkExtractor } : {} });
  if (options.save !== false)
    saveQuietly(index, paths);
  return { scope, paths, base, index, report };
}
function openIndexes(ctx, options = {}) {
  const tiers = [];
  if (options.scope !== "global")
    tiers.push(openTierIndex(ctx, "project", options));
  if (options.scope !== "project" && ctx.includeGlobal && existsSync4(ctx.global.memoriesDir)) {
    tiers.push(openTierIndex(ctx, "global", options));
  }
  return tiers;
}
function saveQuietly(index, paths) {
  try {
    index.save(paths);
  } catch {
  }
}
function allDiagnostics(tiers) {
  return tiers.flatMap((t) => t.report.diagnostics);
}
var linkExtractor, loaded;
var init_indexes = __esm({
  "dist/api/indexes.js"() {
    "use strict";
    init_wikilinks();
    init_keyword_index();
    linkExtractor = extractWikilinks;
    loaded = /* @__PURE__ */ new WeakMap();
  }
});

// dist/api/embed.js
var embed_exports = {};
__export(embed_exports, {
  DEFAULT_EMBED_INDEX: () => DEFAULT_EMBED_INDEX,
  DEFAULT_LOAD_EMBEDDER: () => DEFAULT_LOAD_EMBEDDER,
  EMBED_TEXT_VERSION: () => EMBED_TEXT_VERSION,
  degradedNotice: () => degradedNotice,
  embedIndex: () => embedIndex,
  embedItemsFor: () => embedItemsFor,
  loadEmbedder: () => loadEmbedder,
  loadTierVectors: () => loadTierVectors,
  missingDocs: () => missingDocs,
  projectFor: () => projectFor,
  projectName: () => projectName,
  saveTierVectors: () => saveTierVectors,
  vectorKey: () => vectorKey
});
import { createHash as createHash3 } from "node:crypto";
import { readFileSync as readFileSync6 } from "node:fs";
import { basename as basename2, join as join8 } from "node:path";
function projectName(ctx) {
  try {
    const pkg = JSON.parse(readFileSync6(join8(ctx.root, "package.json"), "utf8"));
    if (typeof pkg.name === "string" && pkg.name.trim() !== "")
      return pkg.name.trim().replace(/^@[^/]+\//, "");
  } catch {
  }
  return basename2(ctx.root);
}
function projectFor(ctx, scope) {
  return scope === "project" ? projectName(ctx) : void 0;
}
function vectorKey(doc, project) {
  return createHash3("sha1").update(`cortex-embed/${EMBED_TEXT_VERSION}
${project ?? ""}
${doc.contentKey}`).digest("hex");
}
function oneLine2(text3) {
  return text3.replace(/\s+/g, " ").trim();
}
function degradedNotice(err) {
  const message = err instanceof Error ? err.message : String(err);
  const hint = err instanceof EmbedUnavailableError ? err.hint : void 0;
  const cause = oneLine2(message).replace(/\.$/, "");
  return `keyword-only recall: ${cause}.${hint ? ` Fix: ${oneLine2(hint)}` : ""}`;
}
async function loadConfigured(settings, batchSize) {
  const { loadTransformersEmbedder: loadTransformersEmbedder2 } = await Promise.resolve().then(() => (init_transformers(), transformers_exports));
  return loadTransformersEmbedder2({ model: settings.model, dtype: settings.dtype, modelDir: settings.modelDir, batchSize });
}
async function loadEmbedder(ctx, options = {}) {
  const { batchSize, timeoutMs } = { ...DEFAULT_LOAD_EMBEDDER, ...options };
  if (ctx.embedder)
    return { embedder: ctx.embedder };
  const settings = embedSettings(ctx);
  if (!settings.enabled) {
    const error = new EmbedUnavailableError("embeddings are turned off (CORTEX_EMBED=0 or embed.enabled: false)", {
      hint: "Unset CORTEX_EMBED, or set embed.enabled: true in .cortex/config.yaml."
    });
    return { embedder: void 0, notice: degradedNotice(error), error };
  }
  let load = loads.get(ctx);
  if (!load) {
    load = loadConfigured(settings, batchSize);
    loads.set(ctx, load);
    load.catch(() => loads.delete(ctx));
  }
  try {
    return { embedder: await withTimeout(load, timeoutMs) };
  } catch (error) {
    return { embedder: void 0, notice: degradedNotice(error), error };
  }
}
async function withTimeout(promise, ms) {
  if (ms === void 0)
    return promise;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new EmbedUnavailableError(`the embedding model was not ready within ${ms} ms`, {
      hint: "Run `cortex recall --mode hybrid` once outside the hook to check the model loads, or raise the time budget."
    })), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
async function loadTierVectors(ctx, tier, embedder, options = {}) {
  const file = vectorsFile(tier.paths);
  const identity = { model: embedder.model, dims: embedder.dims };
  const cache2 = options.fresh ? new VectorCache(identity) : await loadVectorCache(file, identity).catch(() => new VectorCache(identity));
  const project = projectFor(ctx, tier.scope);
  const keys = /* @__PURE__ */ new Map();
  for (const doc of tier.index.docs.values())
    if (isEmbeddable(doc))
      keys.set(doc.id, vectorKey(doc, project));
  return { tier, file, cache: cache2, project, keys };
}
function quickBody(text3) {
  const normalized = text3.replace(/\r\n?/g, "\n").replace(/^\uFEFF/, "");
  if (!normalized.startsWith("---\n"))
    return void 0;
  const close = /\n---[ \t]*(?:\n|$)/.exec(normalized.slice(3));
  if (!close)
    return void 0;
  return normalizeBody(normalized.slice(3 + close.index + close[0].length));
}
function embedItemsFor(tv, docs) {
  const items = [];
  const diagnostics = [];
  for (const doc of docs) {
    let body;
    try {
      body = quickBody(readFileSync6(memoryPath(tv.tier.paths, doc.id), "utf8"));
    } catch {
      body = void 0;
    }
    if (body !== void 0 && contentKeyOf({ type: doc.type, summary: doc.summary, body }) === doc.contentKey) {
      items.push({ hash: vectorKey(doc, tv.project), text: embeddingText({ type: doc.type, summary: doc.summary, body }, { project: tv.project }) });
      continue;
    }
    const read2 = readMemoryFile({ path: memoryPath(tv.tier.paths, doc.id), id: doc.id }, doc.file);
    diagnostics.push(...read2.diagnostics.filter((d) => d.severity === "error"));
    const memory = read2.memory;
    if (!memory || !isEmbeddable(memory))
      continue;
    items.push({ hash: vectorKey({ contentKey: contentKeyOf(memory) }, tv.project), text: embeddingText(memory, { project: tv.project }) });
  }
  return { items, diagnostics };
}
function missingDocs(tv, docs = tv.tier.index.docs.values()) {
  const out = [];
  for (const doc of docs) {
    const key = tv.keys.get(doc.id);
    if (key !== void 0 && !tv.cache.has(key))
      out.push(doc);
  }
  return out;
}
async function saveTierVectors(tv, options) {
  if (options.prune)
    tv.cache.prune(new Set(tv.keys.values()));
  if (!tv.cache.dirty)
    return true;
  try {
    await saveVectorCache(tv.file, tv.cache);
    return true;
  } catch {
    return false;
  }
}
async function embedIndex(ctx, input = {}) {
  const { batchSize, onProgress, signal, rebuild, scope, checkpointMs, tiers: opened } = { ...DEFAULT_EMBED_INDEX, ...input };
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  const timings = { loadMs: 0, readMs: 0, embedMs: 0 };
  const unavailable = (notice) => ({ available: false, notice, modelLoaded: false, tiers: [], aborted: false, timings, diagnostics: [] });
  const settings = embedSettings(ctx);
  if (!ctx.embedder && !settings.enabled)
    return unavailable((await loadEmbedder(ctx)).notice ?? "");
  const tiers = opened ?? openIndexes(ctx, scope ? { scope } : {});
  const vectors = await Promise.all(tiers.map((tier) => loadTierVectors(ctx, tier, { model: settings.identity, dims: void 0 }, { fresh: rebuild })));
  const missing = vectors.map((tv) => missingDocs(tv));
  const readTotal = missing.reduce((n, docs) => n + docs.length, 0);
  const report = (tv, cached, embedded, removed) => {
    let left = 0;
    for (const key of tv.keys.values())
      if (!tv.cache.has(key))
        left++;
    return { scope: tv.tier.scope, file: tv.file, embeddable: tv.keys.size, cached, embedded, removed, missing: left };
  };
  if (readTotal === 0) {
    const reports2 = [];
    for (const tv of vectors) {
      const before = tv.cache.size;
      await saveTierVectors(tv, { prune: true });
      reports2.push(report(tv, tv.keys.size, 0, before - tv.cache.size));
    }
    const dims = vectors.find((tv) => tv.cache.dims !== void 0)?.cache.dims;
    return { available: true, model: settings.identity, dims, project: projectName(ctx), modelLoaded: false, tiers: reports2, aborted: false, timings, diagnostics: [] };
  }
  onProgress?.({ phase: "load", done: 0, total: 1 });
  let started = Date.now();
  const loaded2 = await loadEmbedder(ctx, { batchSize });
  timings.loadMs = Date.now() - started;
  if (!loaded2.embedder)
    return unavailable(loaded2.notice);
  const embedder = loaded2.embedder;
  onProgress?.({ phase: "load", done: 1, total: 1 });
  started = Date.now();
  const plans = [];
  const diagnostics = [];
  let read2 = 0;
  onProgress?.({ phase: "read", done: 0, total: readTotal });
  for (const [i, tv] of vectors.entries()) {
    const docs = missing[i] ?? [];
    const { items, diagnostics: found } = embedItemsFor(tv, docs);
    read2 += docs.length;
    onProgress?.({ phase: "read", done: read2, total: readTotal });
    diagnostics.push(...found);
    plans.push({ tv, cachedBefore: tv.keys.size - docs.length, items });
  }
  timings.readMs = Date.now() - started;
  started = Date.now();
  const total = plans.reduce((n, p) => n + new Set(p.items.map((i) => i.hash)).size, 0);
  let offset = 0;
  let aborted = false;
  const reports = [];
  if (total > 0)
    onProgress?.({ phase: "embed", done: 0, total });
  for (const { tv, cachedBefore, items } of plans) {
    let lastSave = Date.now();
    const result = aborted ? { embedded: 0, aborted: true, total: 0, cached: 0 } : await embedMissing({
      items,
      cache: tv.cache,
      embedder,
      batchSize,
      signal,
      onProgress: ({ done }) => {
        if (done > 0)
          onProgress?.({ phase: "embed", done: offset + done, total });
      },
      checkpoint: async () => {
        if (Date.now() - lastSave < checkpointMs)
          return;
        await saveTierVectors(tv, { prune: false });
        lastSave = Date.now();
      }
    });
    offset += result.embedded;
    aborted ||= result.aborted;
    const before = tv.cache.size;
    await saveTierVectors(tv, { prune: !result.aborted });
    reports.push(report(tv, cachedBefore, result.embedded, result.aborted ? 0 : before - tv.cache.size));
  }
  timings.embedMs = Date.now() - started;
  return {
    available: true,
    model: embedder.model,
    dims: embedder.dims,
    project: projectName(ctx),
    modelLoaded: true,
    tiers: reports,
    aborted,
    timings,
    diagnostics
  };
}
var EMBED_TEXT_VERSION, DEFAULT_LOAD_EMBEDDER, loads, DEFAULT_EMBED_INDEX;
var init_embed = __esm({
  "dist/api/embed.js"() {
    "use strict";
    init_embedder();
    init_memory_format();
    init_keyword_index();
    init_vectors();
    init_memory_store();
    init_paths();
    init_embed_settings();
    init_indexes();
    EMBED_TEXT_VERSION = 1;
    DEFAULT_LOAD_EMBEDDER = { batchSize: 32, timeoutMs: void 0 };
    loads = /* @__PURE__ */ new WeakMap();
    DEFAULT_EMBED_INDEX = {
      batchSize: 32,
      onProgress: void 0,
      signal: void 0,
      rebuild: false,
      scope: void 0,
      checkpointMs: 3e3,
      tiers: void 0
    };
  }
});

// dist/api/hybrid.js
var hybrid_exports = {};
__export(hybrid_exports, {
  FUSION_DEPTH: () => FUSION_DEPTH,
  recallWithVectors: () => recallWithVectors
});
async function recallWithVectors(ctx, plan2) {
  const { query, limit, options, mode } = plan2;
  const tiers = openIndexes(ctx, plan2.scope ? { scope: plan2.scope } : {});
  const diagnostics = allDiagnostics(tiers);
  const keywordOnly = (notice) => ({ query, mode: "keyword", results: keywordResults(tiers, query, options), diagnostics, notice });
  const loaded2 = await loadEmbedder(ctx, { timeoutMs: plan2.modelTimeoutMs });
  if (!loaded2.embedder)
    return keywordOnly(loaded2.notice);
  const embedder = loaded2.embedder;
  try {
    const vectors = await Promise.all(tiers.map((tier) => loadTierVectors(ctx, tier, embedder)));
    const notice = await embedNewMemories(vectors, embedder, options, plan2.embedOnRecall ?? DEFAULT_EMBED_ON_RECALL);
    const types = plan2.types ?? [];
    const [queryVector] = await embedder.embed([queryEmbeddingText(query, { project: projectName(ctx), type: types.length === 1 ? types[0] : void 0 })]);
    if (!queryVector)
      throw new EmbedUnavailableError(`the embedder ${embedder.model} returned no vector for the query`);
    const minSimilarity = plan2.minSimilarity ?? embedSettings(ctx).minSimilarity;
    const semantic = semanticRanking(vectors, queryVector, options, { depth: mode === "semantic" ? limit : Math.max(FUSION_DEPTH, limit), minSimilarity });
    const results = mode === "semantic" ? semantic.map(({ candidate, similarity, score }) => withSimilarity(toResult(candidate.doc, score, []), similarity)) : fuse(tiers, query, options, semantic);
    return { query, mode, results: results.slice(0, limit), diagnostics, ...notice ? { notice } : {} };
  } catch (err) {
    if (err instanceof EmbedUnavailableError)
      return keywordOnly(degradedNotice(err));
    throw err;
  }
}
function withSimilarity(result, similarity) {
  return similarity === void 0 ? result : { ...result, similarity };
}
async function embedNewMemories(vectors, embedder, options, budget) {
  const missing = vectors.map((tv) => missingDocs(tv, tv.tier.index.filter(options)));
  const count2 = missing.reduce((n, docs) => n + docs.length, 0);
  if (count2 === 0)
    return void 0;
  if (count2 > budget) {
    return `semantic recall is incomplete: ${count2} ${count2 === 1 ? "memory has" : "memories have"} no vector yet. Fix: run \`cortex index --embed\`.`;
  }
  for (const [i, tv] of vectors.entries()) {
    const docs = missing[i] ?? [];
    if (docs.length === 0)
      continue;
    const { items } = embedItemsFor(tv, docs);
    await embedMissing({ items, cache: tv.cache, embedder, batchSize: 32 });
    await saveTierVectors(tv, { prune: true });
  }
  return void 0;
}
function semanticRanking(vectors, queryVector, options, settings) {
  const hits = [];
  for (const tv of vectors) {
    const byKey = /* @__PURE__ */ new Map();
    const entries = [];
    for (const doc of tv.tier.index.filter(options)) {
      if (!isEmbeddable(doc))
        continue;
      const key = tv.keys.get(doc.id);
      const vector = key === void 0 ? void 0 : tv.cache.get(key);
      if (!vector)
        continue;
      byKey.set(doc.id, { tier: tv.tier, doc });
      entries.push({ id: doc.id, vector });
    }
    const factor = tv.tier.scope === "global" ? GLOBAL_SCORE_FACTOR : 1;
    for (const { id, score: similarity } of topKByCosine(queryVector, entries, settings.depth)) {
      if (similarity < settings.minSimilarity)
        break;
      const candidate = byKey.get(id);
      hits.push({ candidate, similarity, score: similarity > 0 ? similarity * factor : similarity });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.candidate.doc.id < b.candidate.doc.id ? -1 : a.candidate.doc.id > b.candidate.doc.id ? 1 : 0));
  return hits.slice(0, settings.depth);
}
function fuse(tiers, query, options, semantic) {
  const keyword = keywordResults(tiers, query, { ...options, limit: Math.max(FUSION_DEPTH, options.limit) });
  const byKey = /* @__PURE__ */ new Map();
  for (const result of keyword)
    byKey.set(keyOf(result.scope, result.id), { result, hit: void 0 });
  for (const hit of semantic) {
    const key = keyOf(hit.candidate.tier.scope, hit.candidate.doc.id);
    const entry = byKey.get(key);
    if (entry)
      entry.hit = hit;
    else
      byKey.set(key, { result: void 0, hit });
  }
  const fused = reciprocalRankFusion([keyword.map((r) => keyOf(r.scope, r.id)), semantic.map((h) => keyOf(h.candidate.tier.scope, h.candidate.doc.id))]);
  return fused.map(({ id, score }) => {
    const entry = byKey.get(id);
    const base = entry.result ?? toResult(entry.hit.candidate.doc, 0, []);
    return withSimilarity({ ...base, score }, entry.hit?.similarity);
  });
}
var FUSION_DEPTH, keyOf;
var init_hybrid = __esm({
  "dist/api/hybrid.js"() {
    "use strict";
    init_fusion();
    init_embedder();
    init_vectors();
    init_embed();
    init_embed_settings();
    init_indexes();
    init_recall();
    FUSION_DEPTH = 50;
    keyOf = (scope, id) => `${scope}:${id}`;
  }
});

// dist/core/graph.js
function withDefaults(defaults, options) {
  const merged = { ...defaults };
  for (const [key, value2] of Object.entries(options))
    if (value2 !== void 0)
      merged[key] = value2;
  return merged;
}
function fileOf(edge) {
  if (edge.file !== void 0)
    return edge.file;
  try {
    return `.cortex/edges/${edgeFileName({ source: edge.source, relation: edge.relation, target: edge.target })}`;
  } catch {
    return `.cortex/edges/${edge.source}--${edge.relation}--${edge.target}.md`;
  }
}
function better(a, b) {
  if (a.alias !== b.alias)
    return !a.alias;
  const fa = fileOf(a.input);
  const fb = fileOf(b.input);
  if (fa !== fb)
    return fa < fb;
  return a.index < b.index;
}
function sanitize(options, collect) {
  const o = withDefaults({ ...DEFAULT_BUILD_GRAPH, memoryIds: [], edges: [] }, options);
  const nodes = new Set(o.memoryIds);
  const diagnostics = [];
  const index = new EdgeIndex();
  const kept = [];
  const losers = [];
  const problem = (input, reason, ruleId, hint, severity = "error") => {
    if (collect)
      diagnostics.push({ file: fileOf(input), reason, ruleId, severity, hint });
  };
  for (let i = 0; i < o.edges.length; i++) {
    const input = o.edges[i];
    let relation;
    let alias = false;
    if (isRelation(input.relation))
      relation = input.relation;
    else {
      const resolved = resolveRelation(String(input.relation));
      if (!resolved || resolved.reversed) {
        problem(input, resolved ? `relation "${input.relation}" reads from target to source` : `unknown relation "${String(input.relation)}"`, "edge-relation-unknown", resolved ? `Swap source and target and write relation: ${resolved.relation}.` : `Use one of: ${RELATIONS.join(", ")}.`);
        continue;
      }
      relation = resolved.relation;
      alias = true;
      problem(input, `relation "${input.relation}" is an alias of "${relation}"`, "relation-alias", `Write relation: ${relation}.`, "warning");
    }
    if (input.source === input.target) {
      problem(input, `edge links ${input.source} to itself`, "edge-self-loop", "Delete this edge file.");
      continue;
    }
    if (!nodes.has(input.source) || !nodes.has(input.target)) {
      const missing = [input.source, input.target].filter((id) => !nodes.has(id));
      problem(input, `edge points to no memory: ${missing.map((id) => `"${id}"`).join(" and ")} not found`, "edge-dangling", "Delete this edge file, or restore the missing memory.");
      continue;
    }
    if (typeof input.strength !== "number" || !(input.strength >= 0 && input.strength <= 1)) {
      problem(input, `strength must be a number from 0 to 1, found ${String(input.strength)}`, "edge-strength-invalid", "Set strength: to a value such as 0.8.");
      continue;
    }
    if (!isEdgeStatus(input.status)) {
      problem(input, `unknown edge status "${String(input.status)}"`, "edge-status-invalid", "Use active or suggested.");
      continue;
    }
    const edge = {
      source: input.source,
      target: input.target,
      relation,
      strength: input.strength,
      status: input.status,
      bidirectional: input.bidirectional === true,
      origin: input.origin
    };
    const candidate = { edge, input, alias, index: i, slot: kept.length, dropped: false };
    const existing = index.get(edge.source, relation, edge.target);
    if (!existing) {
      index.add(candidate);
      kept.push(candidate);
    } else if (better(candidate, existing)) {
      candidate.slot = existing.slot;
      kept[existing.slot] = candidate;
      index.replace(existing, candidate);
      losers.push([existing, candidate]);
    } else
      losers.push([candidate, existing]);
  }
  for (const [loser, winner] of collect ? losers : []) {
    diagnostics.push({
      file: fileOf(loser.input),
      reason: `duplicate edge: ${fileOf(winner.input)} already links ${loser.edge.source} ${loser.edge.relation} ${loser.edge.target}`,
      ruleId: "edge-duplicate",
      severity: "error",
      hint: `Delete ${fileOf(loser.input)}.`
    });
  }
  for (const candidate of kept) {
    if (!candidate.edge.bidirectional || candidate.dropped)
      continue;
    const { source, relation, target } = candidate.edge;
    const reverse = index.get(target, relation, source);
    if (!reverse || reverse.dropped)
      continue;
    const rank = (c) => [c.edge.bidirectional ? 0 : 1, c.edge.status === "active" ? 0 : 1, fileOf(c.input)];
    const [a, b] = [rank(candidate), rank(reverse)];
    const keepCandidate = a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] <= b[2];
    const [keep, drop] = keepCandidate ? [candidate, reverse] : [reverse, candidate];
    drop.dropped = true;
    if (collect) {
      diagnostics.push({
        file: fileOf(drop.input),
        reason: `redundant edge: ${fileOf(keep.input)} is bidirectional and already links ${drop.edge.source} ${drop.edge.relation} ${drop.edge.target}`,
        ruleId: "edge-redundant",
        severity: "warning",
        hint: `Delete ${fileOf(drop.input)}.`
      });
    }
  }
  const edges = [];
  for (const candidate of kept)
    if (!candidate.dropped)
      edges.push(candidate.edge);
  const linkSources = Object.entries(o.wikilinks);
  const explicit = (source, target) => {
    const same = index.get(source, "relates_to", target);
    if (same && !same.dropped)
      return true;
    const reverse = index.get(target, "relates_to", source);
    return reverse !== void 0 && !reverse.dropped && reverse.edge.bidirectional;
  };
  for (const [source, targets] of linkSources) {
    if (!nodes.has(source))
      continue;
    const seen = /* @__PURE__ */ new Set();
    for (const target of targets) {
      if (target === source || seen.has(target))
        continue;
      seen.add(target);
      if (!nodes.has(target)) {
        if (collect) {
          diagnostics.push({
            file: o.memoryFile(source),
            reason: `[[${target}]] links to no memory`,
            ruleId: "wikilink-dangling",
            severity: "warning",
            hint: "Fix the id in the link, or remove the link."
          });
        }
        continue;
      }
      if (explicit(source, target))
        continue;
      edges.push({
        source,
        target,
        relation: "relates_to",
        strength: WIKILINK_STRENGTH,
        status: "active",
        bidirectional: false,
        origin: "wikilink"
      });
    }
  }
  diagnostics.sort((a, b) => a.file !== b.file ? a.file < b.file ? -1 : 1 : a.ruleId !== b.ruleId ? a.ruleId < b.ruleId ? -1 : 1 : a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0);
  return { nodes, edges, diagnostics };
}
function buildGraph(options) {
  const { nodes, edges } = sanitize(options, false);
  let adjacency;
  const index = () => {
    if (adjacency)
      return adjacency;
    const out = /* @__PURE__ */ new Map();
    const inn = /* @__PURE__ */ new Map();
    for (const edge of edges) {
      const o = out.get(edge.source);
      if (o)
        o.push(edge);
      else
        out.set(edge.source, [edge]);
      const i = inn.get(edge.target);
      if (i)
        i.push(edge);
      else
        inn.set(edge.target, [edge]);
    }
    return adjacency = { out, in: inn };
  };
  return {
    nodes,
    edges,
    get out() {
      return index().out;
    },
    get in() {
      return index().in;
    }
  };
}
function lintGraph(options) {
  return sanitize(options, true).diagnostics;
}
function viaBefore(a, b) {
  if (a.strength !== b.strength)
    return a.strength > b.strength;
  if (a.from !== b.from)
    return a.from < b.from;
  if (a.relation !== b.relation)
    return a.relation < b.relation;
  return a.direction === "out" && b.direction === "in";
}
function traverse(graph, start, options = {}) {
  const o = withDefaults(DEFAULT_TRAVERSE, options);
  const maxDepth = Number.isFinite(o.depth) ? Math.max(0, Math.min(MAX_TRAVERSE_DEPTH, Math.floor(o.depth))) : DEFAULT_TRAVERSE.depth;
  if (!graph.nodes.has(start))
    return [];
  const types = o.types ? new Set(o.types) : void 0;
  const usable = (e) => (e.status === "active" || o.includeSuggested) && e.strength >= o.minStrength && (!types || types.has(e.relation));
  const walkOut = o.direction !== "in";
  const walkIn = o.direction !== "out";
  const visited = /* @__PURE__ */ new Set([start]);
  const levels = [];
  let frontier = [start];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const found = /* @__PURE__ */ new Map();
    const offer = (id, via) => {
      if (visited.has(id))
        return;
      const best = found.get(id);
      if (!best || viaBefore(via, best))
        found.set(id, via);
    };
    for (const from of frontier) {
      for (const e of graph.out.get(from) ?? []) {
        if ((walkOut || e.bidirectional) && usable(e))
          offer(e.target, { from, relation: e.relation, direction: "out", strength: e.strength });
      }
      for (const e of graph.in.get(from) ?? []) {
        if ((walkIn || e.bidirectional) && usable(e))
          offer(e.source, { from, relation: e.relation, direction: "in", strength: e.strength });
      }
    }
    const ids = [...found.keys()].sort();
    if (ids.length === 0)
      break;
    for (const id of ids)
      visited.add(id);
    levels.push({ depth, nodes: ids.map((id) => ({ id, via: found.get(id) })) });
    frontier = ids;
  }
  return levels;
}
function centrality(graph, options = {}) {
  const o = withDefaults(DEFAULT_CENTRALITY, options);
  const degree = /* @__PURE__ */ new Map();
  let max = 0;
  const bump = (id) => {
    const d = (degree.get(id) ?? 0) + 1;
    degree.set(id, d);
    if (d > max)
      max = d;
  };
  for (const e of graph.edges) {
    if (e.status !== "active" || e.origin === "wikilink" && !o.includeWikilinks)
      continue;
    bump(e.target);
    if (e.bidirectional)
      bump(e.source);
  }
  const result = /* @__PURE__ */ Object.create(null);
  for (const id of graph.nodes)
    result[id] = max === 0 ? 0 : (degree.get(id) ?? 0) / max;
  return result;
}
function neighbours(graph, id, options = {}) {
  const o = withDefaults(DEFAULT_NEIGHBOURS, options);
  const flat = [];
  for (const level of traverse(graph, id, o)) {
    const ordered = [...level.nodes].sort((a, b) => b.via.strength - a.via.strength || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const node2 of ordered)
      flat.push({ id: node2.id, depth: level.depth, ...node2.via });
  }
  return flat.slice(0, Math.max(0, o.limit));
}
function followSourceOf(graph, ids) {
  const inputs = [...new Set(ids)];
  const inputSet = new Set(inputs);
  const seen = /* @__PURE__ */ new Set();
  const result = [];
  for (const from of inputs) {
    const links = [];
    for (const e of graph.out.get(from) ?? []) {
      if (e.relation === "source_of" && e.status === "active")
        links.push({ id: e.target, from, direction: "out" });
    }
    for (const e of graph.in.get(from) ?? []) {
      if (e.relation === "source_of" && e.status === "active")
        links.push({ id: e.source, from, direction: "in" });
    }
    links.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : a.direction === "out" ? -1 : 1);
    for (const link2 of links) {
      if (inputSet.has(link2.id) || seen.has(link2.id))
        continue;
      seen.add(link2.id);
      result.push(link2);
    }
  }
  return result;
}
var DEFAULT_BUILD_GRAPH, EdgeIndex, DEFAULT_TRAVERSE, MAX_TRAVERSE_DEPTH, DEFAULT_CENTRALITY, DEFAULT_NEIGHBOURS;
var init_graph = __esm({
  "dist/core/graph.js"() {
    "use strict";
    init_edge();
    DEFAULT_BUILD_GRAPH = {
      wikilinks: {},
      memoryFile: (id) => `.cortex/memories/${id}.md`
    };
    EdgeIndex = class {
      bySource = /* @__PURE__ */ new Map();
      get(source, relation, target) {
        const list2 = this.bySource.get(source)?.get(target);
        if (list2) {
          for (const c of list2)
            if (c.edge.relation === relation)
              return c;
        }
        return void 0;
      }
      add(c) {
        let byTarget = this.bySource.get(c.edge.source);
        if (!byTarget)
          this.bySource.set(c.edge.source, byTarget = /* @__PURE__ */ new Map());
        const list2 = byTarget.get(c.edge.target);
        if (list2)
          list2.push(c);
        else
          byTarget.set(c.edge.target, [c]);
      }
      replace(old, c) {
        const list2 = this.bySource.get(old.edge.source).get(old.edge.target);
        list2[list2.indexOf(old)] = c;
      }
    };
    DEFAULT_TRAVERSE = {
      depth: 2,
      direction: "both",
      types: void 0,
      minStrength: 0,
      includeSuggested: false
    };
    MAX_TRAVERSE_DEPTH = 10;
    DEFAULT_CENTRALITY = { includeWikilinks: true };
    DEFAULT_NEIGHBOURS = { ...DEFAULT_TRAVERSE, limit: Number.POSITIVE_INFINITY };
  }
});

// dist/core/edge-format.js
function baseName(file) {
  return file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
}
function parseEdge(text3, options = {}) {
  const file = options.file ?? "<edge>";
  const diagnostics = [];
  const normalized = text3.replace(/\r\n?/g, "\n").replace(/^\uFEFF/, "");
  const fail = (reason, ruleId, line, column, hint) => {
    diagnostics.push({ file, line, column, reason, ruleId, severity: "error", hint });
    return { edge: void 0, diagnostics };
  };
  if (!normalized.startsWith("---\n")) {
    return fail(`expected YAML frontmatter between "---" lines at the top, found "${excerpt(normalized)}"`, "frontmatter-missing", 1, 1, `Start the file with frontmatter, e.g. ${EDGE_EXAMPLE}`);
  }
  let fm;
  try {
    fm = splitFrontmatter(normalized);
  } catch (err) {
    if (err instanceof YamlFrontmatterError) {
      const line = err.line;
      const lineText = line === void 0 ? "" : normalized.split("\n")[line - 1] ?? "";
      return fail(`invalid YAML in frontmatter: ${err.message}${lineText ? ` (found "${excerpt(lineText)}")` : ""}`, "yaml-syntax", line, err.column, 'Fix the YAML syntax (quote values containing ": " or "#"), then run `cortex lint`.');
    }
    return fail(`cannot read frontmatter: ${err.message}`, "frontmatter-invalid", 1, 1);
  }
  const data = fm.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return fail("frontmatter must be a YAML mapping of keys to values", "frontmatter-shape", 2, 1, `Example: ${EDGE_EXAMPLE}`);
  }
  const raw = data;
  const lineOf = (key) => fm.lines.get(key) ?? 1;
  const report = (severity, key, reason, ruleId, hint) => diagnostics.push({ file, line: lineOf(key), reason, ruleId, severity, hint });
  let usable = true;
  const endpoint = (key) => {
    let value2 = raw[key];
    if (typeof value2 === "number")
      value2 = String(value2);
    if (typeof value2 !== "string" || value2.trim() === "") {
      report("error", key, `missing or empty "${key}"`, "edge-endpoint-missing", `Add \`${key}: <memory id>\`.`);
      return void 0;
    }
    const problem = checkEdgeId(value2);
    if (problem) {
      report("error", key, `${key} "${excerpt(value2, 40)}" ${problem}`, "edge-endpoint-unsafe", "Use the id of an existing memory, e.g. `chose-sqlite-k3f9qa`.");
      return void 0;
    }
    return value2;
  };
  const source = endpoint("source");
  const target = endpoint("target");
  if (source === void 0 || target === void 0)
    usable = false;
  let relation;
  const rawRelation = raw.relation;
  const validList = `Use one of: ${RELATIONS.join(", ")}.`;
  if (typeof rawRelation !== "string" || rawRelation.trim() === "") {
    report("error", "relation", 'missing or empty "relation"', "edge-relation-missing", validList);
    usable = false;
  } else {
    const resolved = resolveRelation(rawRelation);
    if (!resolved) {
      report("error", "relation", `unknown relation "${excerpt(rawRelation, 30)}"`, "edge-relation-unknown", validList);
      usable = false;
    } else if (resolved.reversed) {
      report("error", "relation", `relation "${excerpt(rawRelation, 30)}" reads from target to source`, "edge-relation-reversed", `Swap source and target and write \`relation: ${resolved.relation}\`.`);
      usable = false;
    } else {
      relation = resolved.relation;
      if (rawRelation !== relation) {
        report("warning", "relation", `relation "${excerpt(rawRelation, 30)}" is an alias of "${relation}"`, "relation-alias", `Write \`relation: ${relation}\`.`);
      }
    }
  }
  if (options.file !== void 0 && file.endsWith(".md") && source !== void 0 && target !== void 0 && relation !== void 0) {
    const name = baseName(file);
    const expected = `${source}--${relation}--${target}.md`;
    const parts = parseEdgeFileName(name);
    if (!parts) {
      report("error", "source", `file name "${name}" is not <source>--<relation>--<target>.md`, "edge-name-invalid", `Rename the file to ${expected}.`);
      usable = false;
    } else if (parts.source !== source || parts.relation !== relation || parts.target !== target) {
      report("error", "source", `frontmatter says ${expected} but the file is named ${name}`, "edge-name-mismatch", `Rename the file to ${expected}, or fix the frontmatter to match the name.`);
      usable = false;
    }
  }
  const rawStrength = raw.strength ?? DEFAULT_EDGE.strength;
  let strength = DEFAULT_EDGE.strength;
  if (typeof rawStrength !== "number" || !Number.isFinite(rawStrength) || rawStrength < 0 || rawStrength > 1) {
    report("error", "strength", `strength must be a number from 0 to 1, found ${excerpt(JSON.stringify(rawStrength) ?? "", 20)}`, "field-invalid", "Set `strength:` to a value such as 0.8.");
  } else {
    strength = rawStrength === 0 ? 0 : rawStrength;
  }
  const rawStatus = raw.status ?? DEFAULT_EDGE.status;
  let status2 = DEFAULT_EDGE.status;
  if (isEdgeStatus(rawStatus))
    status2 = rawStatus;
  else
    report("error", "status", `unknown edge status "${excerpt(String(rawStatus), 30)}"`, "field-invalid", `Use one of: ${EDGE_STATUSES.join(", ")}.`);
  const rawBidirectional = raw.bidirectional ?? DEFAULT_EDGE.bidirectional;
  let bidirectional = DEFAULT_EDGE.bidirectional;
  if (typeof rawBidirectional === "boolean")
    bidirectional = rawBidirectional;
  else
    report("error", "bidirectional", `bidirectional must be true or false, found ${excerpt(JSON.stringify(rawBidirectional) ?? "", 20)}`, "field-invalid");
  const rawOrigin = raw.origin ?? DEFAULT_EDGE.origin;
  let origin = DEFAULT_EDGE.origin;
  if (isEdgeOrigin(rawOrigin))
    origin = rawOrigin;
  else
    report("error", "origin", `unknown edge origin "${excerpt(String(rawOrigin), 30)}"`, "field-invalid", `Use one of: ${EDGE_ORIGINS.join(", ")}.`);
  let created;
  const rawCreated = raw.created;
  if (rawCreated === void 0 || rawCreated === null) {
    if (options.fallbackDate) {
      report("warning", "created", 'missing "created"', "date-missing", `Add \`created: ${options.fallbackDate}\`.`);
      created = options.fallbackDate;
    } else {
      report("error", "created", 'missing "created"', "date-missing", "Add an ISO-8601 date such as 2026-11-21T10:00:00Z.");
      created = "1970-01-01T00:00:00Z";
    }
  } else {
    const text4 = rawCreated instanceof Date ? rawCreated.toISOString() : String(rawCreated);
    if (!DATE_PATTERN2.test(text4) || Number.isNaN(Date.parse(text4))) {
      report("error", "created", `created is not an ISO-8601 date: "${excerpt(text4, 30)}"`, "date-invalid", "Use a date such as 2026-11-21T10:00:00Z.");
      created = options.fallbackDate ?? "1970-01-01T00:00:00Z";
    } else {
      created = text4;
    }
  }
  const extra = {};
  for (const key of Object.keys(raw)) {
    if (!EDGE_KEY_ORDER.includes(key))
      setOwn(extra, key, raw[key]);
  }
  if (!usable || source === void 0 || target === void 0 || relation === void 0) {
    return { edge: void 0, diagnostics };
  }
  return {
    edge: { source, target, relation, strength, status: status2, bidirectional, origin, created, body: normalizeBody(fm.body), extra },
    diagnostics
  };
}
function edgeFrontmatter(edge) {
  const fm = {
    source: edge.source,
    target: edge.target,
    relation: edge.relation,
    strength: edge.strength === 0 ? 0 : edge.strength,
    status: edge.status,
    bidirectional: edge.bidirectional,
    origin: edge.origin,
    created: edge.created
  };
  for (const [key, value2] of Object.entries(edge.extra)) {
    if (!Object.hasOwn(fm, key))
      setOwn(fm, key, value2);
  }
  return fm;
}
function renderEdge(edge) {
  return renderFrontmatterFile(edgeFrontmatter(edge), edge.body);
}
var DATE_PATTERN2, EDGE_EXAMPLE;
var init_edge_format = __esm({
  "dist/core/edge-format.js"() {
    "use strict";
    init_edge();
    init_memory_format();
    DATE_PATTERN2 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
    EDGE_EXAMPLE = "---\\nsource: a-k3f9qa\\ntarget: b-p2x81d\\nrelation: refines\\nstrength: 0.8\\nstatus: active\\n---\\nWhy they are linked.";
  }
});

// dist/store/edge-store.js
import { readdirSync as readdirSync4, readFileSync as readFileSync7, rmSync as rmSync5, statSync as statSync6 } from "node:fs";
import { join as join9 } from "node:path";
function isEdgeFileName(name) {
  return name.endsWith(".md") && !name.startsWith(".");
}
function listEdgeNames(paths) {
  let names;
  try {
    names = readdirSync4(paths.edgesDir);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "ENOTDIR"))
      return [];
    throw err;
  }
  return names.filter(isEdgeFileName).sort();
}
function listEdgeFiles(paths) {
  const entries = [];
  for (const name of listEdgeNames(paths)) {
    const path3 = join9(paths.edgesDir, name);
    try {
      const st = statSync6(path3);
      if (st.isFile())
        entries.push({ path: path3, name, size: st.size, mtimeMs: st.mtimeMs });
    } catch (err) {
      if (!isErrnoCode(err, "ENOENT"))
        throw err;
    }
  }
  return entries;
}
function readEdgeFile(entry, shownAs) {
  let text3;
  let mtime;
  const problem = (reason, ruleId, hint) => ({
    edge: void 0,
    text: void 0,
    diagnostics: [{ file: shownAs, reason, ruleId, severity: "error", hint }]
  });
  try {
    const st = statSync6(entry.path);
    if (st.size > MAX_EDGE_FILE_BYTES) {
      return problem(`file is ${Math.round(st.size / 1024)} KB; an edge file may be at most ${MAX_EDGE_FILE_BYTES / 1024} KB`, "file-too-large", "Keep the rationale short; put long explanations in a memory.");
    }
    mtime = st.mtime;
    text3 = readFileSync7(entry.path, "utf8");
  } catch (err) {
    return problem(`cannot read file: ${err.code ?? err.message}`, "file-unreadable", "Check the file permissions.");
  }
  const { edge, diagnostics } = parseEdge(text3, { file: shownAs, fallbackDate: formatDate(mtime) });
  return { edge, diagnostics, text: text3 };
}
function assertEdgeKey(key) {
  for (const [id, what] of [
    [key.source, "edge source"],
    [key.target, "edge target"]
  ]) {
    assertSafeId(id, what);
    const problem = checkEdgeId(id);
    if (problem)
      throw new UsageError(`Invalid ${what} "${id}": it ${problem}.`);
  }
  return key;
}
function edgePath(paths, key) {
  return join9(paths.edgesDir, edgeFileName(assertEdgeKey(key)));
}
function readEdge(paths, key, base) {
  const path3 = edgePath(paths, key);
  try {
    statSync6(path3);
  } catch (err) {
    if (isErrnoCode(err, "ENOENT"))
      return void 0;
    throw err;
  }
  return { ...readEdgeFile({ path: path3 }, displayPath(path3, base)), path: path3 };
}
function writeEdge(paths, edge) {
  const path3 = edgePath(paths, edge);
  const name = edgeFileName(edge);
  return { path: path3, name, result: writeIfChanged(path3, renderEdge(edge)) };
}
function deleteEdge(paths, key) {
  const path3 = edgePath(paths, key);
  try {
    rmSync5(path3);
    return true;
  } catch (err) {
    if (isErrnoCode(err, "ENOENT"))
      return false;
    throw err;
  }
}
function readAllEdges(paths, base) {
  const edges = [];
  const diagnostics = [];
  for (const entry of listEdgeFiles(paths)) {
    const shown = displayPath(entry.path, base);
    const read2 = readEdgeFile(entry, shown);
    diagnostics.push(...read2.diagnostics);
    if (read2.edge)
      edges.push({ edge: read2.edge, file: shown });
  }
  return { edges, diagnostics };
}
var MAX_EDGE_FILE_BYTES;
var init_edge_store = __esm({
  "dist/store/edge-store.js"() {
    "use strict";
    init_errors();
    init_edge();
    init_edge_format();
    init_memory();
    init_atomic();
    init_memory_store();
    init_paths();
    MAX_EDGE_FILE_BYTES = 64 * 1024;
  }
});

// dist/store/lock.js
import { mkdirSync as mkdirSync2, openSync as openSync3, closeSync as closeSync3, readFileSync as readFileSync8, rmSync as rmSync6, statSync as statSync7, writeSync } from "node:fs";
import { dirname as dirname3 } from "node:path";
function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return isErrnoCode(err, "EPERM");
  }
}
function tryAcquire(path3, staleMs) {
  try {
    const fd = openSync3(path3, "wx");
    writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
    closeSync3(fd);
    return true;
  } catch (err) {
    if (!isErrnoCode(err, "EEXIST"))
      throw err;
  }
  try {
    const age = Date.now() - statSync7(path3).mtimeMs;
    let pid = 0;
    try {
      pid = JSON.parse(readFileSync8(path3, "utf8")).pid ?? 0;
    } catch {
    }
    if (age > staleMs || pid > 0 && pid !== process.pid && !isAlive(pid) && age > 50) {
      rmSync6(path3, { force: true });
    }
  } catch (err) {
    if (!isErrnoCode(err, "ENOENT"))
      throw err;
  }
  return false;
}
async function withLock(path3, fn, options = {}) {
  const { timeoutMs, staleMs } = { ...DEFAULT_LOCK, ...options };
  mkdirSync2(dirname3(path3), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  while (!tryAcquire(path3, staleMs)) {
    if (Date.now() >= deadline) {
      throw new LockError(`Another cortex process holds ${path3}.`, {
        hint: "Wait for it to finish; if no cortex process is running, delete the lock file."
      });
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await fn();
  } finally {
    rmSync6(path3, { force: true });
  }
}
function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
function withLockSync(path3, fn, options = {}) {
  const { timeoutMs, staleMs } = { ...DEFAULT_LOCK, ...options };
  mkdirSync2(dirname3(path3), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let wait = 2;
  while (!tryAcquire(path3, staleMs)) {
    if (Date.now() >= deadline) {
      throw new LockError(`Another cortex process holds ${path3}.`, {
        hint: "Wait for it to finish; if no cortex process is running, delete the lock file."
      });
    }
    sleepSync(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
  try {
    return fn();
  } finally {
    rmSync6(path3, { force: true });
  }
}
var DEFAULT_LOCK;
var init_lock = __esm({
  "dist/store/lock.js"() {
    "use strict";
    init_errors();
    DEFAULT_LOCK = { timeoutMs: 15e3, staleMs: 3e4 };
  }
});

// dist/search/edge-cache.js
import { readFileSync as readFileSync9, statSync as statSync8 } from "node:fs";
import { join as join10 } from "node:path";
function dirStamp(dir, now = Date.now()) {
  try {
    const st = statSync8(dir);
    const stamp = { exists: true, mtimeMs: st.mtimeMs, ino: st.ino };
    if (now - st.mtimeMs < RACY_WINDOW_MS)
      stamp.racy = true;
    return stamp;
  } catch {
    return { exists: false, mtimeMs: 0, ino: 0 };
  }
}
function sameStamp(current, stored) {
  if (!current || !stored || stored.racy)
    return false;
  if (!current.exists || !stored.exists)
    return current.exists === stored.exists;
  return current.mtimeMs === stored.mtimeMs && current.ino === stored.ino;
}
function packFlags(edge) {
  return (edge.status === "suggested" ? 1 : 0) | (edge.bidirectional ? 2 : 0) | EDGE_ORIGINS.indexOf(edge.origin) << 2;
}
var EDGE_CACHE_VERSION, RACY_WINDOW_MS, EdgeCache;
var init_edge_cache = __esm({
  "dist/search/edge-cache.js"() {
    "use strict";
    init_edge();
    init_atomic();
    init_edge_store();
    init_memory_store();
    EDGE_CACHE_VERSION = 1;
    RACY_WINDOW_MS = 100;
    EdgeCache = class _EdgeCache {
      files;
      dir;
      dirty;
      constructor(data) {
        this.files = data?.files ?? /* @__PURE__ */ Object.create(null);
        this.dir = data?.dir;
        this.dirty = data === void 0;
      }
      static cachePath(paths) {
        return join10(paths.cacheDir, "edges.json");
      }
      /** Loads the cache; anything unusable gives an empty one. */
      static load(paths) {
        try {
          const parsed = JSON.parse(readFileSync9(_EdgeCache.cachePath(paths), "utf8"));
          if (parsed?.version === EDGE_CACHE_VERSION && parsed.dir && typeof parsed.files === "object" && parsed.files !== null) {
            return new _EdgeCache({ ...parsed, files: Object.assign(/* @__PURE__ */ Object.create(null), parsed.files) });
          }
        } catch {
        }
        return new _EdgeCache(void 0);
      }
      /** The directory stamp the cached listing belongs to. */
      get stamp() {
        return this.dir;
      }
      get isDirty() {
        return this.dirty;
      }
      get size() {
        return Object.keys(this.files).length;
      }
      /**
       * Brings the cache up to date with the directory. Warm (stamp unchanged): no I/O
       * beyond one stat of the directory. `verify` lists and stats every file regardless.
       */
      refresh(paths, options) {
        const report = { listed: false, read: 0, removed: 0 };
        const stamp = dirStamp(paths.edgesDir, options.now);
        if (!options.verify && sameStamp(stamp, this.dir))
          return report;
        report.listed = true;
        const names = stamp.exists ? listEdgeNames(paths) : [];
        const seen = /* @__PURE__ */ new Set();
        for (const name of names) {
          seen.add(name);
          const path3 = join10(paths.edgesDir, name);
          let size;
          let mtimeMs;
          try {
            const st = statSync8(path3);
            if (!st.isFile())
              continue;
            size = st.size;
            mtimeMs = st.mtimeMs;
          } catch {
            seen.delete(name);
            continue;
          }
          const known = this.files[name];
          if (known && known[0] === size && known[1] === mtimeMs)
            continue;
          const read2 = readEdgeFile({ path: path3 }, displayPath(path3, options.base));
          report.read++;
          this.files[name] = read2.edge ? [size, mtimeMs, read2.edge.strength, packFlags(read2.edge)] : [size, mtimeMs, null, read2.diagnostics];
          this.dirty = true;
          this.sorted = void 0;
        }
        for (const name of Object.keys(this.files)) {
          if (!seen.has(name)) {
            delete this.files[name];
            this.sorted = void 0;
            report.removed++;
            this.dirty = true;
          }
        }
        if (!this.dir || JSON.stringify(this.dir) !== JSON.stringify(stamp))
          this.dirty = true;
        this.dir = stamp;
        return report;
      }
      /**
       * Records an edge file this process just wrote, and adopts the directory's new stamp
       * as trusted: the writer holds the write lock, so the change is its own.
       */
      record(paths, name, edge) {
        const path3 = join10(paths.edgesDir, name);
        const st = statSync8(path3);
        this.files[name] = [st.size, st.mtimeMs, edge.strength, packFlags(edge)];
        this.sorted = void 0;
        this.adopt(paths);
      }
      /** Records an edge file this process just deleted. */
      forget(paths, name) {
        delete this.files[name];
        this.sorted = void 0;
        this.adopt(paths);
      }
      adopt(paths) {
        const stamp = dirStamp(paths.edgesDir);
        delete stamp.racy;
        this.dir = stamp;
        this.dirty = true;
      }
      /** Every usable cached edge, in file-name order, with its displayed path. */
      edges(paths, base) {
        const out = [];
        const names = this.sortedNames();
        const prefix = displayPath(paths.edgesDir, base);
        for (const name of names) {
          const rec = this.files[name];
          if (rec[2] === null)
            continue;
          const key = parseEdgeFileName(name);
          if (!key)
            continue;
          const flags = rec[3];
          out.push({
            source: key.source,
            target: key.target,
            relation: key.relation,
            strength: rec[2],
            status: flags & 1 ? "suggested" : "active",
            bidirectional: (flags & 2) !== 0,
            origin: EDGE_ORIGINS[flags >> 2] ?? "manual",
            file: `${prefix}/${name}`
          });
        }
        return out;
      }
      /** The problems of the files that could not be used. */
      diagnostics() {
        const out = [];
        for (const name of this.sortedNames()) {
          const rec = this.files[name];
          if (rec[2] === null)
            out.push(...rec[3]);
        }
        return out;
      }
      sorted;
      // Callers ask for the edges and then the diagnostics: sort 30,000 names once.
      sortedNames() {
        return this.sorted ??= Object.keys(this.files).sort();
      }
      /** True when a file with this name is cached (usable or not). */
      has(key) {
        const name = typeof key === "string" ? key : `${key.source}--${key.relation}--${key.target}.md`;
        return name in this.files;
      }
      /** Saves atomically when anything changed. */
      save(paths) {
        if (!this.dirty || !this.dir)
          return;
        const data = { version: EDGE_CACHE_VERSION, dir: this.dir, files: this.files };
        writeFileAtomic(_EdgeCache.cachePath(paths), JSON.stringify(data));
        this.dirty = false;
      }
    };
  }
});

// dist/search/graph-cache.js
import { readFileSync as readFileSync10 } from "node:fs";
import { join as join11 } from "node:path";
function pack(e) {
  return RELATIONS.indexOf(e.relation) | (e.status === "suggested" ? 8 : 0) | (e.bidirectional ? 16 : 0) | EDGE_ORIGINS.indexOf(e.origin) << 5;
}
function graphCachePath(cacheDir) {
  return join11(cacheDir, "graph.json");
}
function sameKey(stored, current) {
  return stored.memories === current.memories && stored.stamps.length === current.stamps.length && stored.stamps.every((s, i) => sameStamp(current.stamps[i], s));
}
function saveGraphCache(cacheDir, key, graph, centrality2, diagnostics) {
  const nodes = [...graph.nodes];
  const index = /* @__PURE__ */ new Map();
  nodes.forEach((id, i) => index.set(id, i));
  const edges = [];
  for (const e of graph.edges)
    edges.push(index.get(e.source), index.get(e.target), pack(e), e.strength);
  const data = {
    version: GRAPH_CACHE_VERSION,
    key,
    nodes,
    edges,
    centrality: nodes.map((id) => centrality2[id] ?? 0),
    diagnostics
  };
  try {
    writeFileAtomic(graphCachePath(cacheDir), JSON.stringify(data));
  } catch {
  }
}
function loadGraphCache(cacheDir, key) {
  let data;
  try {
    data = JSON.parse(readFileSync10(graphCachePath(cacheDir), "utf8"));
  } catch {
    return void 0;
  }
  if (data?.version !== GRAPH_CACHE_VERSION || !data.key || !Array.isArray(data.nodes) || !Array.isArray(data.edges) || !Array.isArray(data.centrality) || data.edges.length % 4 !== 0 || !sameKey(data.key, key)) {
    return void 0;
  }
  const graph = new PackedGraph(data.nodes, data.edges);
  let centrality2;
  return {
    graph,
    get centrality() {
      if (!centrality2) {
        centrality2 = /* @__PURE__ */ Object.create(null);
        data.nodes.forEach((id, i) => centrality2[id] = data.centrality[i] ?? 0);
      }
      return centrality2;
    },
    diagnostics: Array.isArray(data.diagnostics) ? data.diagnostics : []
  };
}
var GRAPH_CACHE_VERSION, PackedGraph, AdjacencyView;
var init_graph_cache = __esm({
  "dist/search/graph-cache.js"() {
    "use strict";
    init_edge();
    init_atomic();
    init_edge_cache();
    GRAPH_CACHE_VERSION = 1;
    PackedGraph = class {
      nodes;
      ids;
      packed;
      objects;
      indexOf;
      all;
      outView;
      inView;
      constructor(ids, packed) {
        this.ids = ids;
        this.packed = packed;
        this.nodes = new Set(ids);
        this.objects = new Array(packed.length / 4);
      }
      edge(i) {
        let e = this.objects[i];
        if (!e) {
          const p = this.packed;
          const flags = p[i * 4 + 2];
          e = {
            source: this.ids[p[i * 4]],
            target: this.ids[p[i * 4 + 1]],
            relation: RELATIONS[flags & 7] ?? "relates_to",
            strength: p[i * 4 + 3],
            status: flags & 8 ? "suggested" : "active",
            bidirectional: (flags & 16) !== 0,
            origin: EDGE_ORIGINS[flags >> 5] ?? "manual"
          };
          this.objects[i] = e;
        }
        return e;
      }
      get edges() {
        if (!this.all) {
          const n = this.packed.length / 4;
          this.all = new Array(n);
          for (let i = 0; i < n; i++)
            this.all[i] = this.edge(i);
        }
        return this.all;
      }
      nodeIndex(id) {
        if (!this.indexOf) {
          this.indexOf = /* @__PURE__ */ new Map();
          this.ids.forEach((nodeId, i) => this.indexOf.set(nodeId, i));
        }
        return this.indexOf.get(id);
      }
      get out() {
        return this.outView ??= new AdjacencyView(this, this.ids, this.packed, 0);
      }
      get in() {
        return this.inView ??= new AdjacencyView(this, this.ids, this.packed, 1);
      }
    };
    AdjacencyView = class {
      graph;
      ids;
      start;
      order;
      lists = /* @__PURE__ */ new Map();
      constructor(graph, ids, packed, column) {
        this.graph = graph;
        this.ids = ids;
        const n = ids.length;
        const m = packed.length / 4;
        const start = new Int32Array(n + 1);
        for (let i = 0; i < m; i++)
          start[packed[i * 4 + column] + 1]++;
        for (let v = 0; v < n; v++)
          start[v + 1] += start[v];
        const fill = start.slice(0, n);
        const order = new Int32Array(m);
        for (let i = 0; i < m; i++)
          order[fill[packed[i * 4 + column]]++] = i;
        this.start = start;
        this.order = order;
      }
      listAt(v) {
        const from = this.start[v];
        const to = this.start[v + 1];
        if (from === to)
          return void 0;
        let list2 = this.lists.get(v);
        if (!list2) {
          list2 = [];
          for (let k = from; k < to; k++)
            list2.push(this.graph.edge(this.order[k]));
          this.lists.set(v, list2);
        }
        return list2;
      }
      get(id) {
        const v = this.graph.nodeIndex(id);
        return v === void 0 ? void 0 : this.listAt(v);
      }
      has(id) {
        return this.get(id) !== void 0;
      }
      get size() {
        let count2 = 0;
        for (let v = 0; v < this.ids.length; v++)
          if (this.start[v + 1] > this.start[v])
            count2++;
        return count2;
      }
      *entries() {
        for (let v = 0; v < this.ids.length; v++) {
          const list2 = this.listAt(v);
          if (list2)
            yield [this.ids[v], list2];
        }
      }
      *keys() {
        for (const [id] of this.entries())
          yield id;
      }
      *values() {
        for (const [, list2] of this.entries())
          yield list2;
      }
      [Symbol.iterator]() {
        return this.entries();
      }
      forEach(fn) {
        for (const [id, list2] of this.entries())
          fn(list2, id, this);
      }
    };
  }
});

// dist/api/graph-view.js
import { existsSync as existsSync5 } from "node:fs";
function graphTierLocations(ctx) {
  const tiers = [{ scope: "project", paths: ctx.paths, base: ctx.root }];
  if (ctx.includeGlobal && existsSync5(ctx.global.memoriesDir))
    tiers.push({ scope: "global", paths: ctx.global, base: ctx.global.cortexDir });
  return tiers;
}
function memoryFingerprint(nodes) {
  const parts = emptyFingerprint();
  for (const n of nodes)
    addLine(parts, memoryLine(n.scope, n.id, n.links?.join(" ") ?? ""));
  return fingerprintText(parts);
}
function refreshEdgeCache(tier, verify = false) {
  const cache2 = EdgeCache.load(tier.paths);
  cache2.refresh(tier.paths, { base: tier.base, verify });
  saveEdgeCacheQuietly(cache2, tier.paths);
  return cache2;
}
function saveEdgeCacheQuietly(cache2, paths) {
  try {
    cache2.save(paths);
  } catch {
  }
}
function loadGraph(ctx, tiers, source, verify = false) {
  const memories = source.fingerprint;
  let caches;
  let changed = false;
  if (verify) {
    caches = tiers.map((tier) => {
      const cache2 = EdgeCache.load(tier.paths);
      const report = cache2.refresh(tier.paths, { base: tier.base, verify: true });
      if (report.read > 0 || report.removed > 0)
        changed = true;
      saveEdgeCacheQuietly(cache2, tier.paths);
      return cache2;
    });
  }
  if (!changed) {
    const cached = loadGraphCache(ctx.paths.cacheDir, { stamps: tiers.map((t) => dirStamp(t.paths.edgesDir)), memories });
    if (cached) {
      return {
        graph: cached.graph,
        get centrality() {
          return cached.centrality;
        },
        diagnostics: cached.diagnostics,
        rebuilt: false
      };
    }
  }
  const edges = [];
  const diagnostics = [];
  const stamps = [];
  tiers.forEach((tier, i) => {
    const cache2 = caches?.[i] ?? refreshEdgeCache(tier);
    stamps.push(cache2.stamp);
    edges.push(...cache2.edges(tier.paths, tier.base));
    diagnostics.push(...cache2.diagnostics());
  });
  const nodes = source.nodes();
  const wikilinks = /* @__PURE__ */ Object.create(null);
  for (const n of nodes)
    if (n.links && n.links.length > 0)
      wikilinks[n.id] = n.links;
  const graph = buildGraph({ memoryIds: nodes.map((n) => n.id), edges, wikilinks });
  const centrality2 = centrality(graph);
  saveGraphCache(ctx.paths.cacheDir, { stamps, memories }, graph, centrality2, diagnostics);
  return { graph, centrality: centrality2, diagnostics, rebuilt: true };
}
function centralityFor(ctx, memories) {
  const tiers = graphTierLocations(ctx);
  const scopes = new Set(tiers.map((t) => t.scope));
  const nodes = [];
  for (const m of memories)
    if (scopes.has(m.scope))
      nodes.push({ scope: m.scope, id: m.id, links: extractWikilinks(m.body) });
  return loadGraph(ctx, tiers, { fingerprint: memoryFingerprint(nodes), nodes: () => nodes }).centrality;
}
var init_graph_view = __esm({
  "dist/api/graph-view.js"() {
    "use strict";
    init_graph();
    init_fingerprint();
    init_wikilinks();
    init_edge_cache();
    init_graph_cache();
  }
});

// dist/api/graph.js
import { join as join12 } from "node:path";
function graphTiers(ctx, given) {
  return graphTierLocations(ctx).map((t) => given?.find((g) => g.scope === t.scope) ?? openTierIndex(ctx, t.scope));
}
function openGraph(ctx, options = {}) {
  const tiers = graphTiers(ctx, options.tiers);
  const fingerprint = fingerprintText(tiers.map((t) => t.index.docs.fingerprint()).reduce(combineFingerprints, emptyFingerprint()));
  const nodes = () => {
    const out = [];
    for (const tier of tiers)
      for (const doc of tier.index.docs.allFacets())
        out.push({ scope: doc.scope, id: doc.id, links: doc.links });
    return out;
  };
  const loaded2 = loadGraph(ctx, tiers, { fingerprint, nodes }, options.verify === true);
  return {
    graph: loaded2.graph,
    get centrality() {
      return loaded2.centrality;
    },
    diagnostics: loaded2.diagnostics,
    rebuilt: loaded2.rebuilt,
    tiers
  };
}
function findDoc(tiers, id) {
  for (const tier of tiers) {
    const doc = tier.index.docs.get(id);
    if (doc)
      return { doc, tier };
  }
  return void 0;
}
function relationOf(word) {
  const resolved = resolveRelation(word);
  if (!resolved) {
    throw new UsageError(`Unknown relation "${word}".`, {
      hint: `Use one of: ${RELATIONS.join(", ")} (aliases such as related, derives, example, refine, contradict, supersede, source work too).`
    });
  }
  return resolved;
}
async function withEdgeWrite(tier, fn) {
  return withLock(join12(tier.paths.cacheDir, "locks", "write.lock"), async () => {
    const cache2 = refreshEdgeCache(tier);
    try {
      return await fn(cache2);
    } finally {
      saveEdgeCacheQuietly(cache2, tier.paths);
    }
  });
}
function writeEdgeRecorded(tier, cache2, edge) {
  const written = writeEdge(tier.paths, edge);
  if (written.result !== "unchanged")
    cache2.record(tier.paths, written.name, edge);
  return { file: displayPath(written.path, tier.base), result: written.result };
}
function deleteEdgeRecorded(tier, cache2, key) {
  const removed = deleteEdge(tier.paths, key);
  if (removed)
    cache2.forget(tier.paths, edgeFileName(key));
  return removed;
}
function edgeTier(ctx, a, b) {
  const scope = a.tier.scope === "global" && b.tier.scope === "global" ? "global" : "project";
  return { scope, paths: scope === "project" ? ctx.paths : ctx.global, base: tierBase(ctx, scope) };
}
function locateBoth(ctx, source, target) {
  assertSafeId(source);
  assertSafeId(target);
  const tiers = graphTiers(ctx, void 0);
  const a = findDoc(tiers, source);
  if (!a)
    throw new MemoryNotFoundError(source);
  const b = findDoc(tiers, target);
  if (!b)
    throw new MemoryNotFoundError(target);
  return { tiers, a, b };
}
async function link(ctx, input) {
  const { relation, reversed } = relationOf(input.relation);
  const [source, target] = reversed ? [input.target, input.source] : [input.source, input.target];
  if (input.strength !== void 0 && !(input.strength >= 0 && input.strength <= 1)) {
    throw new UsageError(`Strength must be a number from 0 to 1, got ${input.strength}.`);
  }
  if (source === target)
    throw new UsageError(`Cannot link ${source} to itself.`, { hint: "An edge joins two different memories." });
  const { a, b } = locateBoth(ctx, source, target);
  const tier = edgeTier(ctx, a, b);
  return withEdgeWrite(tier, (cache2) => {
    const existing = readEdge(tier.paths, { source, relation, target }, tier.base)?.edge;
    const edge = existing ? {
      ...existing,
      ...input.strength !== void 0 ? { strength: input.strength } : {},
      status: input.suggested ? "suggested" : "active",
      ...input.bidirectional !== void 0 ? { bidirectional: input.bidirectional } : {},
      ...input.note !== void 0 ? { body: input.note } : {}
    } : buildEdge({
      source,
      target,
      relation,
      created: formatDate(ctx.now()),
      origin: "manual",
      status: input.suggested ? "suggested" : "active",
      ...input.strength !== void 0 ? { strength: input.strength } : {},
      ...input.bidirectional !== void 0 ? { bidirectional: input.bidirectional } : {},
      ...input.note !== void 0 ? { body: input.note } : {}
    });
    const { file, result } = writeEdgeRecorded(tier, cache2, edge);
    return { action: result, edge, file, reversed };
  });
}
async function unlink2(ctx, input) {
  const { a, b } = locateBoth(ctx, input.source, input.target);
  const keys = [];
  if (input.relation !== void 0) {
    const { relation, reversed } = relationOf(input.relation);
    keys.push(reversed ? { source: input.target, relation, target: input.source } : { source: input.source, relation, target: input.target });
  } else {
    for (const relation of RELATIONS) {
      keys.push({ source: input.source, relation, target: input.target }, { source: input.target, relation, target: input.source });
    }
  }
  const tier = edgeTier(ctx, a, b);
  const removed = await withEdgeWrite(tier, (cache2) => {
    const done = [];
    for (const key of keys) {
      if (key.source === key.target)
        continue;
      const file = displayPath(join12(tier.paths.edgesDir, edgeFileName(key)), tier.base);
      if (deleteEdgeRecorded(tier, cache2, key))
        done.push({ ...key, file });
    }
    return done;
  });
  const wikilinkFrom = a.doc.links?.includes(b.doc.id) ? a.doc.id : b.doc.links?.includes(a.doc.id) ? b.doc.id : void 0;
  return { removed, ...wikilinkFrom ? { wikilinkFrom } : {} };
}
function summaryOf(doc) {
  return { id: doc.id, type: doc.type, summary: doc.summary, status: doc.status, scope: doc.scope };
}
function traverseMemories(ctx, input) {
  const o = { ...DEFAULT_TRAVERSE_INPUT, ...input };
  assertSafeId(o.id);
  if (!Number.isInteger(o.depth) || o.depth < 0 || o.depth > 10)
    throw new UsageError(`--depth must be an integer from 0 to 10, got ${o.depth}.`);
  if (!["out", "in", "both"].includes(o.direction))
    throw new UsageError(`--direction must be out, in or both, got "${o.direction}".`);
  if (!(o.minStrength >= 0 && o.minStrength <= 1))
    throw new UsageError(`--min-strength must be a number from 0 to 1, got ${o.minStrength}.`);
  const types = o.types?.map((t) => relationOf(t).relation);
  const view = openGraph(ctx);
  const start = findDoc(view.tiers, o.id);
  if (!start)
    throw new MemoryNotFoundError(o.id);
  const levels = traverse(view.graph, o.id, {
    depth: o.depth,
    direction: o.direction,
    types,
    minStrength: o.minStrength,
    includeSuggested: o.includeSuggested === true
  });
  const out = levels.map((level) => ({
    depth: level.depth,
    nodes: level.nodes.map((n) => {
      const found = findDoc(view.tiers, n.id);
      return { ...found ? summaryOf(found.doc) : { id: n.id, type: "context", summary: "", status: "active", scope: "project" }, via: n.via };
    })
  }));
  return {
    start: summaryOf(start.doc),
    depth: o.depth,
    direction: o.direction,
    levels: out,
    total: out.reduce((n, l) => n + l.nodes.length, 0),
    diagnostics: view.diagnostics
  };
}
var DEFAULT_TRAVERSE_INPUT;
var init_graph2 = __esm({
  "dist/api/graph.js"() {
    "use strict";
    init_errors();
    init_edge();
    init_fingerprint();
    init_graph();
    init_memory();
    init_edge_store();
    init_lock();
    init_memory_store();
    init_paths();
    init_graph_view();
    init_indexes();
    DEFAULT_TRAVERSE_INPUT = { depth: 2, direction: "both", minStrength: 0 };
  }
});

// dist/api/enrich.js
function enrichResults(ctx, results, input = {}) {
  if (results.length === 0)
    return [];
  const o = { ...DEFAULT_ENRICH, ...input.options };
  const view = openGraph(ctx, input.tiers ? { tiers: input.tiers } : {});
  return results.map((result) => {
    const code2 = [];
    for (const link2 of followSourceOf(view.graph, [result.id])) {
      if (link2.direction !== "in" || code2.length >= o.codeLimit)
        continue;
      const found = findDoc(view.tiers, link2.id);
      if (found)
        code2.push({ id: link2.id, type: found.doc.type, summary: found.doc.summary, file: found.doc.file });
    }
    const shown = new Set(code2.map((c) => c.id));
    const related = [];
    const limit = o.limit + shown.size;
    let near = neighbours(view.graph, result.id, { depth: 1, limit });
    if (near.length < limit && o.depth > 1)
      near = neighbours(view.graph, result.id, { depth: Math.min(2, o.depth), limit });
    for (const n of near) {
      if (shown.has(n.id) || related.length >= o.limit)
        continue;
      const found = findDoc(view.tiers, n.id);
      if (!found)
        continue;
      related.push({ id: n.id, type: found.doc.type, summary: found.doc.summary, relation: n.relation, direction: n.direction, depth: n.depth, from: n.from });
    }
    return { ...result, related, code: code2 };
  });
}
var DEFAULT_ENRICH;
var init_enrich = __esm({
  "dist/api/enrich.js"() {
    "use strict";
    init_graph();
    init_graph2();
    DEFAULT_ENRICH = { depth: 2, limit: 5, codeLimit: 3 };
  }
});

// dist/store/signals.js
import { join as join13 } from "node:path";
function signalsPath(paths) {
  return join13(paths.cacheDir, "signals.json");
}
function signalsLockPath(paths) {
  return join13(paths.cacheDir, "locks", "signals.lock");
}
function sanitize2(raw) {
  const out = /* @__PURE__ */ Object.create(null);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return out;
  for (const [id, value2] of Object.entries(raw)) {
    if (typeof value2 !== "object" || value2 === null)
      continue;
    const { accessCount, lastAccess } = value2;
    if (typeof accessCount !== "number" || !Number.isFinite(accessCount) || accessCount < 0)
      continue;
    const signal = { accessCount: Math.floor(accessCount) };
    if (typeof lastAccess === "string" && !Number.isNaN(Date.parse(lastAccess)))
      signal.lastAccess = lastAccess;
    out[id] = signal;
  }
  return out;
}
function readSignals(paths) {
  try {
    const text3 = readFileIfExists(signalsPath(paths));
    if (text3 === void 0)
      return sanitize2(void 0);
    const parsed = JSON.parse(text3.toString("utf8"));
    return parsed?.version === SIGNALS_VERSION ? sanitize2(parsed.signals) : sanitize2(void 0);
  } catch {
    return sanitize2(void 0);
  }
}
function renderSignals(signals) {
  const sorted = {};
  for (const id of Object.keys(signals).sort()) {
    const s = signals[id];
    Object.defineProperty(sorted, id, {
      value: s.lastAccess === void 0 ? { accessCount: s.accessCount } : { accessCount: s.accessCount, lastAccess: s.lastAccess },
      enumerable: true,
      writable: true,
      configurable: true
    });
  }
  return `${JSON.stringify({ version: SIGNALS_VERSION, signals: sorted })}
`;
}
function updateSignals(paths, change, options = {}) {
  withLockSync(signalsLockPath(paths), () => {
    const signals = readSignals(paths);
    if (change(signals))
      writeFileAtomic(signalsPath(paths), renderSignals(signals));
  }, options);
}
var SIGNALS_VERSION;
var init_signals = __esm({
  "dist/store/signals.js"() {
    "use strict";
    init_atomic();
    init_lock();
    SIGNALS_VERSION = 1;
  }
});

// dist/api/signals.js
import { existsSync as existsSync6 } from "node:fs";
function tierPathsOf(ctx, scope) {
  return scope === "project" ? ctx.paths : ctx.global;
}
function recordAccess(ctx, refs, options = {}) {
  const { timeoutMs } = { ...DEFAULT_RECORD_ACCESS, ...options };
  if (refs.length === 0)
    return true;
  let ok = true;
  let at;
  try {
    at = formatDate(ctx.now());
  } catch {
    return false;
  }
  for (const scope of ["project", "global"]) {
    const ids = [...new Set(refs.filter((r) => r.scope === scope).map((r) => r.id))];
    if (ids.length === 0)
      continue;
    try {
      updateSignals(tierPathsOf(ctx, scope), (signals) => {
        for (const id of ids) {
          const previous = signals[id];
          const lastAccess = previous?.lastAccess !== void 0 && previous.lastAccess > at ? previous.lastAccess : at;
          signals[id] = { accessCount: (previous?.accessCount ?? 0) + 1, lastAccess };
        }
        return true;
      }, { timeoutMs });
    } catch {
      ok = false;
    }
  }
  return ok;
}
function loadSignals(ctx, scopes = ["project", "global"]) {
  const merged = /* @__PURE__ */ Object.create(null);
  if (scopes.includes("global") && ctx.includeGlobal && existsSync6(ctx.global.cacheDir))
    Object.assign(merged, readSignals(ctx.global));
  if (scopes.includes("project"))
    Object.assign(merged, readSignals(ctx.paths));
  return merged;
}
var DEFAULT_RECORD_ACCESS;
var init_signals2 = __esm({
  "dist/api/signals.js"() {
    "use strict";
    init_memory();
    init_signals();
    DEFAULT_RECORD_ACCESS = { timeoutMs: 250 };
  }
});

// dist/api/recall.js
function parseSince(since, now) {
  const rel = /^(\d+)\s*([hdwmy])$/.exec(since.trim());
  if (rel) {
    const n = Number(rel[1]);
    const hours = { h: 1, d: 24, w: 24 * 7, m: 24 * 30, y: 24 * 365 }[rel[2]];
    return new Date(now.getTime() - n * hours * 36e5).toISOString();
  }
  if (Number.isNaN(Date.parse(since))) {
    throw new UsageError(`Cannot read --since "${since}".`, { hint: "Use an ISO date (2026-11-01) or an age such as 7d, 2w, 12h." });
  }
  return new Date(Date.parse(since)).toISOString();
}
function searchOptionsOf(ctx, input) {
  for (const t of input.types ?? []) {
    if (!isMemoryType(t))
      throw new UsageError(`Unknown memory type "${t}".`, { hint: `Use one of: ${MEMORY_TYPES.join(", ")}.` });
  }
  for (const s of input.statuses ?? []) {
    if (!isMemoryStatus(s))
      throw new UsageError(`Unknown status "${s}".`, { hint: `Use one of: ${MEMORY_STATUSES.join(", ")}, all.` });
  }
  if (input.limit !== void 0 && (!Number.isInteger(input.limit) || input.limit < 1)) {
    throw new UsageError(`--limit must be a positive integer, got ${input.limit}.`);
  }
  return {
    ...input.types ? { types: input.types } : {},
    ...input.tags ? { tags: input.tags.map(normalizeTag) } : {},
    ...input.statuses ? { statuses: input.statuses } : {},
    ...input.scope ? { scope: input.scope } : {},
    ...input.since ? { since: parseSince(input.since, ctx.now()) } : {}
  };
}
function toResult(doc, score, matched) {
  return {
    id: doc.id,
    type: doc.type,
    summary: doc.summary,
    score,
    status: doc.status,
    scope: doc.scope,
    tags: doc.tags,
    priority: doc.priority,
    confidence: doc.confidence,
    updated: doc.updated,
    branch: doc.branch,
    file: doc.file,
    preview: doc.preview,
    matched
  };
}
function keywordResults(tiers, query, options) {
  const merged = [];
  for (const tier of tiers) {
    const factor = tier.scope === "global" ? GLOBAL_SCORE_FACTOR : 1;
    for (const hit of tier.index.query(query, options)) {
      const doc = tier.index.docs.get(hit.id);
      if (doc)
        merged.push(toResult(doc, hit.score * factor, hit.terms));
    }
  }
  merged.sort((a, b) => b.score - a.score || (a.scope === b.scope ? a.id.localeCompare(b.id) : a.scope === "project" ? -1 : 1));
  return merged.slice(0, options.limit);
}
async function recall(ctx, input) {
  if (input.branch !== void 0 || input.allBranches)
    return (await Promise.resolve().then(() => (init_branches(), branches_exports))).recallBranches(ctx, input);
  const query = input.query.trim();
  if (query === "")
    throw new UsageError("The query is empty.", { hint: 'Example: cortex recall "database choice"' });
  if (input.mode !== void 0 && !RECALL_MODES.includes(input.mode)) {
    throw new UsageError(`Unknown recall mode "${input.mode}".`, { hint: `Use one of: ${RECALL_MODES.join(", ")}.` });
  }
  const limit = input.limit ?? ctx.config.recall.limit;
  const options = { ...searchOptionsOf(ctx, input), limit };
  const scope = input.scope ? { scope: input.scope } : {};
  const mode = input.mode ?? (hasVectors(ctx, scope) ? "hybrid" : "keyword");
  let out;
  let keywordTiers;
  if (mode !== "keyword") {
    const { recallWithVectors: recallWithVectors2 } = await Promise.resolve().then(() => (init_hybrid(), hybrid_exports));
    out = await recallWithVectors2(ctx, { ...input, query, limit, options, mode });
  } else {
    const tiers = openIndexes(ctx, scope);
    out = { query, mode: "keyword", results: keywordResults(tiers, query, options), diagnostics: allDiagnostics(tiers) };
    keywordTiers = tiers;
  }
  if (input.enrich !== false)
    out = { ...out, results: enrichResults(ctx, out.results, keywordTiers ? { tiers: keywordTiers } : {}) };
  if (input.recordAccess !== false)
    recordAccess(ctx, out.results);
  return out;
}
var RECALL_MODES, DEFAULT_EMBED_ON_RECALL, GLOBAL_SCORE_FACTOR;
var init_recall = __esm({
  "dist/api/recall.js"() {
    "use strict";
    init_errors();
    init_memory();
    init_enrich();
    init_embed_settings();
    init_indexes();
    init_signals2();
    RECALL_MODES = ["keyword", "semantic", "hybrid"];
    DEFAULT_EMBED_ON_RECALL = 64;
    GLOBAL_SCORE_FACTOR = 0.9;
  }
});

// dist/api/lint.js
function registerLintRule(rule) {
  if (!extraRules.includes(rule))
    extraRules.push(rule);
}
function compareDiagnostics(a, b) {
  return a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.ruleId.localeCompare(b.ruleId);
}
async function lint(ctx) {
  const diagnostics = [...ctx.configDiagnostics];
  const entries = listMemoryFiles(ctx.paths);
  const topics = /* @__PURE__ */ new Map();
  for (const entry of entries) {
    const shown = displayPath(entry.path, ctx.root);
    const read2 = readMemoryFile(entry, shown);
    diagnostics.push(...read2.diagnostics);
    const m = read2.memory;
    if (m?.topic && m.status === "active") {
      const key = `${m.scope}\0${m.topic}`;
      topics.set(key, [...topics.get(key) ?? [], shown]);
    }
  }
  for (const [key, files] of topics) {
    if (files.length < 2)
      continue;
    const topic = key.split("\0")[1];
    for (const file of files.slice(1)) {
      diagnostics.push({
        file,
        reason: `topic "${topic}" is also used by ${files[0]}; one topic should have one active memory`,
        ruleId: "topic-duplicate",
        severity: "warning",
        hint: "Merge them with `cortex consolidate --merge`, or give one another topic with `cortex edit`."
      });
    }
  }
  for (const rule of extraRules)
    diagnostics.push(...await rule(ctx));
  diagnostics.sort(compareDiagnostics);
  return {
    diagnostics,
    errors: diagnostics.filter((d) => d.severity === "error").length,
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
    filesChecked: entries.length
  };
}
var extraRules;
var init_lint = __esm({
  "dist/api/lint.js"() {
    "use strict";
    init_memory_store();
    extraRules = [];
  }
});

// dist/api/graph-lint.js
var graph_lint_exports = {};
__export(graph_lint_exports, {
  conflictMarkers: () => conflictMarkers,
  graphLintRule: () => graphLintRule
});
import { existsSync as existsSync7, readFileSync as readFileSync11 } from "node:fs";
function conflictMarkers(text3, file) {
  const start = CONFLICT_START.exec(text3);
  if (!start || !CONFLICT_END.test(text3.slice(start.index)))
    return void 0;
  return {
    file,
    line: text3.slice(0, start.index).split("\n").length,
    reason: "unresolved git conflict markers (<<<<<<< \u2026 >>>>>>>)",
    ruleId: "conflict-markers",
    severity: "error",
    hint: "Resolve the conflict: keep the text that is right, delete the marker lines, then commit."
  };
}
function bodyOf(text3) {
  const normalized = text3.replace(/\r\n?/g, "\n");
  if (!normalized.startsWith("---\n"))
    return normalized;
  const end = normalized.indexOf("\n---", 3);
  if (end === -1)
    return "";
  const after = normalized.indexOf("\n", end + 4);
  return after === -1 ? "" : normalized.slice(after + 1);
}
function graphLintRule(ctx) {
  const diagnostics = [];
  const memoryIds = [];
  const wikilinks = /* @__PURE__ */ Object.create(null);
  for (const entry of listMemoryFiles(ctx.paths)) {
    memoryIds.push(entry.id);
    let text3;
    try {
      text3 = readFileSync11(entry.path, "utf8");
    } catch {
      continue;
    }
    const shown = displayPath(entry.path, ctx.root);
    const conflict = conflictMarkers(text3, shown);
    if (conflict)
      diagnostics.push(conflict);
    const links = extractWikilinks(bodyOf(text3));
    if (links.length > 0)
      wikilinks[entry.id] = links;
  }
  if (ctx.includeGlobal && existsSync7(ctx.global.memoriesDir)) {
    for (const entry of listMemoryFiles(ctx.global))
      memoryIds.push(entry.id);
  }
  const edges = [];
  for (const entry of listEdgeFiles(ctx.paths)) {
    const shown = displayPath(entry.path, ctx.root);
    const read2 = readEdgeFile(entry, shown);
    diagnostics.push(...read2.diagnostics);
    if (read2.text !== void 0) {
      const conflict = conflictMarkers(read2.text, shown);
      if (conflict)
        diagnostics.push(conflict);
    }
    if (read2.edge)
      edges.push({ ...read2.edge, file: shown });
  }
  diagnostics.push(...lintGraph({ memoryIds, edges, wikilinks, memoryFile: (id) => `.cortex/memories/${id}.md` }));
  return diagnostics;
}
var CONFLICT_START, CONFLICT_END;
var init_graph_lint = __esm({
  "dist/api/graph-lint.js"() {
    "use strict";
    init_graph();
    init_wikilinks();
    init_edge_store();
    init_memory_store();
    init_lint();
    CONFLICT_START = /^<{7}(?: |$)/m;
    CONFLICT_END = /^>{7}(?: |$)/m;
    registerLintRule(graphLintRule);
  }
});

// dist/git/status.js
var status_exports = {};
__export(status_exports, {
  fileStatuses: () => fileStatuses
});
import * as fs4 from "node:fs";
import { relative as relative2, sep as sep2 } from "node:path";
import git3 from "isomorphic-git";
async function fileStatuses(dir, files) {
  const root = findGitRoot(dir);
  if (!root)
    return void 0;
  const out = [];
  for (const file of files) {
    const path3 = relative2(root, file).split(sep2).join("/");
    let status2;
    try {
      status2 = await git3.status({ fs: fs4, dir: root, filepath: path3 });
    } catch (err) {
      throw new GitError(`Cannot read the git status of ${path3}: ${err.message}`, { cause: err });
    }
    out.push({ path: path3, status: status2, clean: status2 === "unmodified" });
  }
  return out;
}
var init_status = __esm({
  "dist/git/status.js"() {
    "use strict";
    init_errors();
    init_paths();
  }
});

// dist/core/redact.js
function shannonEntropy(s) {
  const n = s.length;
  if (n === 0)
    return 0;
  let other;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128)
      ASCII_COUNTS[c]++;
    else
      (other ??= /* @__PURE__ */ new Map()).set(c, (other.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const count2 = c < 128 ? ASCII_COUNTS[c] : 0;
    if (count2 === 0)
      continue;
    ASCII_COUNTS[c] = 0;
    bits -= count2 / n * Math.log2(count2 / n);
  }
  if (other)
    for (const count2 of other.values())
      bits -= count2 / n * Math.log2(count2 / n);
  return bits;
}
function hasMixedCaseAndDigit(s) {
  return /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);
}
function findTokens(text3, kinds, out) {
  for (const rule of TOKEN_RULES) {
    if (!kinds.has(rule.kind))
      continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text3); m !== null; m = rule.pattern.exec(text3)) {
      const body = m[0].slice(rule.bodyFrom);
      if (shannonEntropy(body) < TOKEN_MIN_ENTROPY)
        continue;
      if (rule.check && !rule.check(body))
        continue;
      out.push({ kind: rule.kind, start: m.index, end: m.index + m[0].length });
    }
  }
}
function hasAwsSecretName(text3, start) {
  let i = start;
  const quote = () => {
    if (text3[i - 1] === '"' || text3[i - 1] === "'")
      i--;
  };
  const blanks = () => {
    for (let k = 0; k < 4 && (text3[i - 1] === " " || text3[i - 1] === "	"); k++)
      i--;
  };
  quote();
  blanks();
  if (text3.startsWith(":=", i - 2) || text3.startsWith("=>", i - 2))
    i -= 2;
  else if (text3[i - 1] === ":" || text3[i - 1] === "=")
    i--;
  blanks();
  quote();
  return AWS_SECRET_NAME.test(text3.slice(Math.max(0, i - 36), i));
}
function findAwsSecrets(text3, out) {
  let searchedTo = 0;
  AWS_KEYWORD.lastIndex = 0;
  for (let k = AWS_KEYWORD.exec(text3); k !== null; k = AWS_KEYWORD.exec(text3)) {
    const judgedTo = searchedTo;
    const from = Math.max(k.index + k[0].length, searchedTo - 40);
    const to = Math.min(text3.length, k.index + k[0].length + AWS_SECRET_REACH);
    if (to <= judgedTo)
      continue;
    searchedTo = to;
    const offset = Math.max(0, from - 1);
    const window = text3.slice(offset, Math.min(text3.length, to + 1));
    AWS_SECRET_VALUE.lastIndex = from - offset;
    for (let m = AWS_SECRET_VALUE.exec(window); m !== null; m = AWS_SECRET_VALUE.exec(window)) {
      const start = offset + m.index;
      const end = start + m[0].length;
      if (end > to)
        break;
      if (end <= judgedTo)
        continue;
      if (!/[A-Z]/.test(m[0]) || !/[a-z]/.test(m[0]) || shannonEntropy(m[0]) < 3)
        continue;
      if (!hasAwsSecretName(text3, start))
        continue;
      out.push({ kind: "aws-secret-key", start, end });
    }
  }
}
function findPrivateKeys(text3, out) {
  const armour = [];
  for (const [pattern, begin] of [[PEM_BEGIN, true], [PEM_END, false]]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text3); m !== null; m = pattern.exec(text3)) {
      armour.push({ begin, start: m.index, end: m.index + m[0].length });
    }
  }
  armour.sort((x, y) => x.start - y.start);
  const open3 = [];
  for (const mark of armour) {
    if (mark.begin) {
      open3.push(mark);
      continue;
    }
    const begin = open3.pop();
    if (begin !== void 0 && PEM_MATERIAL.test(text3.slice(begin.end, mark.start))) {
      out.push({ kind: "private-key", start: begin.start, end: mark.end });
    }
  }
  for (const begin of open3) {
    PEM_BODY_LINES.lastIndex = begin.end;
    const body = PEM_BODY_LINES.exec(text3);
    if (body !== null)
      out.push({ kind: "private-key", start: begin.start, end: begin.end + body[0].length });
  }
}
function isPlaceholder(value2) {
  if (value2.includes(MARKER_PREFIX))
    return true;
  if (/^(?:\$[{(\w]|%(?:[sd]$|[({])|\{\{|<)/.test(value2))
    return true;
  if (/^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|env\.|ENV\[)/.test(value2))
    return true;
  if (/^(.)\1*$/i.test(value2))
    return true;
  return /your|change_?-?me|example|placeholder|dummy|sample|redacted|xxxx|\*\*\*|\.\.\.|<[^>]*>|\$\{|\{\{/i.test(value2);
}
function findUrlPasswords(text3, out) {
  URL_USERINFO.lastIndex = 0;
  for (let m = URL_USERINFO.exec(text3); m !== null; m = URL_USERINFO.exec(text3)) {
    const password = m[2] ?? "";
    if (isPlaceholder(password) || /^(?:password|passwd|pass|pwd|secret|token)$/i.test(password))
      continue;
    const end = m.index + m[0].length - 1;
    out.push({ kind: "url-password", start: end - password.length, end });
  }
}
function authSchemeLength(text3, at) {
  AUTH_SCHEME.lastIndex = at;
  return AUTH_SCHEME.exec(text3)?.[0].length ?? 0;
}
function isKeyChar(c) {
  return c >= 97 && c <= 122 || c >= 65 && c <= 90 || c >= 48 && c <= 57 || c === 95 || c === 45 || c === 46;
}
function isValueStop(c) {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39 || c === 96 || c === 92 || c === 44 || c === 59 || c === 38;
}
function unquotedEnd(text3, from) {
  const limit = Math.min(text3.length, from + MAX_VALUE_LENGTH);
  let end = from;
  while (end < limit && !isValueStop(text3.charCodeAt(end)))
    end++;
  return end;
}
function isSecretValue(value2) {
  if (value2.length < ENV_MIN_LENGTH)
    return false;
  if (isPlaceholder(value2))
    return false;
  if (/^(?:\/|\.\.?\/|~\/|[A-Za-z]:\\)/.test(value2) || value2.includes("://"))
    return false;
  if (/^[\d.,:_+-]+$/.test(value2) || /^v?\d+(?:\.\d+){1,3}(?:[-+][\w.-]*)?$/.test(value2))
    return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value2) || /^[\w$.]+\(/.test(value2))
    return false;
  if (/^[a-z]+(?:[-_.][a-z]+)+$/.test(value2) || /^(?:[A-Z]|[a-z]+[A-Z])[a-z]+(?:[A-Z][a-z]+)*$/.test(value2))
    return false;
  if (/^[A-Z]+(?:_[A-Z]+)*$/.test(value2) || /^[a-z]+$/.test(value2) && value2.length < 20)
    return false;
  if (/^(?:true|false|null|none|undefined|nil)$/i.test(value2))
    return false;
  if (/token|secret|passw|api_?key/i.test(value2))
    return false;
  return shannonEntropy(value2) >= ENV_MIN_ENTROPY;
}
function findEnvAssignments(text3, spans, out) {
  const n = text3.length;
  let next = 0;
  ENV_KEYWORD.lastIndex = 0;
  for (let m = ENV_KEYWORD.exec(text3); m !== null; m = ENV_KEYWORD.exec(text3)) {
    while (next < spans.length && spans[next].end <= m.index)
      next++;
    const inside = spans[next];
    if (inside !== void 0 && inside.start <= m.index) {
      ENV_KEYWORD.lastIndex = inside.end;
      continue;
    }
    const leftLimit = Math.max(0, spans[next - 1]?.end ?? 0, m.index - MAX_KEY_LENGTH);
    const rightLimit = Math.min(n, inside?.start ?? n, m.index + MAX_KEY_LENGTH);
    let keyStart = m.index;
    let keyEnd = m.index + m[0].length;
    while (keyStart > leftLimit && isKeyChar(text3.charCodeAt(keyStart - 1)))
      keyStart--;
    while (keyEnd < rightLimit && isKeyChar(text3.charCodeAt(keyEnd)))
      keyEnd++;
    ENV_KEYWORD.lastIndex = keyEnd;
    const maybeAuthor = m[0].length === 4 && /^or(?!iz)/i.test(text3.slice(m.index + 4, m.index + 8));
    if (maybeAuthor && !SECRET_KEY_NAME.test(text3.slice(keyStart, keyEnd).replace(/[-_.]/g, "")))
      continue;
    let i = keyEnd;
    let quotedKey = false;
    if (text3[i] === "\\" && (text3[i + 1] === '"' || text3[i + 1] === "'")) {
      i += 2;
      quotedKey = true;
    } else if (text3[i] === '"' || text3[i] === "'") {
      i += 1;
      quotedKey = true;
    }
    while (text3[i] === " " || text3[i] === "	")
      i++;
    if (text3.startsWith(":=", i) || text3.startsWith("=>", i))
      i += 2;
    else if (text3[i] === "=") {
      if (text3[i + 1] === "=")
        continue;
      i += 1;
    } else if (text3[i] === ":") {
      i += 1;
      if (!quotedKey && text3[i] !== " " && text3[i] !== "	")
        continue;
    } else
      continue;
    while (text3[i] === " " || text3[i] === "	")
      i++;
    const span = readValue(text3, i);
    ENV_KEYWORD.lastIndex = Math.max(keyEnd, span.scanned);
    if (span.end > span.start && isSecretValue(text3.slice(span.start, span.end))) {
      out.push({ kind: "env-assignment", start: span.start, end: span.end });
    }
  }
}
function readValue(text3, i) {
  let quote = text3[i];
  let open3 = 1;
  if (quote === "\\" && (text3[i + 1] === '"' || text3[i + 1] === "'")) {
    quote = text3[i + 1];
    open3 = 2;
  }
  if (quote === '"' || quote === "'" || quote === "`") {
    let start2 = i + open3;
    const limit = Math.min(text3.length, start2 + MAX_VALUE_LENGTH);
    let close = start2;
    while (close < limit && text3[close] !== quote && text3[close] !== "\n")
      close++;
    if (text3[close] !== quote)
      return { start: start2, end: start2, scanned: close };
    let end2 = close;
    if (open3 === 2 && text3[end2 - 1] === "\\")
      end2--;
    start2 = Math.min(end2, start2 + authSchemeLength(text3, start2));
    return { start: start2, end: end2, scanned: close + 1 };
  }
  let start = i;
  let end = unquotedEnd(text3, start);
  const scheme = authSchemeLength(text3, start);
  if (scheme > 0) {
    start += scheme;
    end = unquotedEnd(text3, start);
  }
  const scanned = end;
  while (end > start && text3[end - 1] === ".")
    end--;
  return { start, end, scanned };
}
function mergeCandidates(candidates) {
  candidates.sort((a, b) => a.start - b.start || b.end - a.end || PRIORITY[b.kind] - PRIORITY[a.kind]);
  const merged = [];
  for (const c of candidates) {
    const last = merged[merged.length - 1];
    if (last !== void 0 && c.start < last.end) {
      if (c.end > last.end)
        last.end = c.end;
      continue;
    }
    merged.push({ ...c });
  }
  return merged;
}
function findSecrets(text3, options = {}) {
  const { kinds, allow } = { ...DEFAULT_FIND_SECRETS, ...options };
  const wanted = new Set(kinds);
  const allowed = new Set(allow);
  const keep = (found) => allowed.size === 0 ? found : found.filter((c) => !allowed.has(text3.slice(c.start, c.end)));
  const shaped = [];
  if (wanted.has("private-key") && text3.includes("-----BEGIN"))
    findPrivateKeys(text3, shaped);
  findTokens(text3, wanted, shaped);
  if (wanted.has("aws-secret-key"))
    findAwsSecrets(text3, shaped);
  if (wanted.has("url-password") && text3.includes("://"))
    findUrlPasswords(text3, shaped);
  let kept = mergeCandidates(keep(shaped));
  if (wanted.has("env-assignment")) {
    const assigned = [];
    findEnvAssignments(text3, kept, assigned);
    kept = mergeCandidates([...kept, ...keep(assigned)]);
  }
  const findings = [];
  let line = 1;
  let lineStart = 0;
  let nextNewline2 = text3.indexOf("\n");
  for (const c of kept) {
    while (nextNewline2 !== -1 && nextNewline2 < c.start) {
      line++;
      lineStart = nextNewline2 + 1;
      nextNewline2 = text3.indexOf("\n", lineStart);
    }
    findings.push({ kind: c.kind, start: c.start, end: c.end, line, column: c.start - lineStart + 1 });
  }
  return findings;
}
function redactSecrets(text3, options = {}) {
  const findings = findSecrets(text3, options);
  if (findings.length === 0)
    return { text: text3, findings };
  let out = "";
  let at = 0;
  for (const f of findings) {
    out += `${text3.slice(at, f.start)}${MARKER_PREFIX}${f.kind}]`;
    at = f.end;
  }
  return { text: out + text3.slice(at), findings };
}
var SECRET_KINDS, DEFAULT_FIND_SECRETS, PRIORITY, MARKER_PREFIX, TOKEN_MIN_ENTROPY, ENV_MIN_LENGTH, ENV_MIN_ENTROPY, MAX_KEY_LENGTH, MAX_VALUE_LENGTH, ASCII_COUNTS, BEFORE, AFTER, BEFORE_B64, AFTER_B64, token, TOKEN_RULES, AWS_KEYWORD, AWS_SECRET_VALUE, AWS_SECRET_NAME, AWS_SECRET_REACH, PEM_BEGIN, PEM_END, PEM_BODY_LINES, PEM_MATERIAL, URL_USERINFO, ENV_KEYWORD, SECRET_KEY_NAME, AUTH_SCHEME;
var init_redact = __esm({
  "dist/core/redact.js"() {
    "use strict";
    SECRET_KINDS = [
      "private-key",
      "aws-access-key",
      "aws-secret-key",
      "github-token",
      "gitlab-token",
      "slack-token",
      "slack-webhook",
      "stripe-key",
      "anthropic-api-key",
      "openai-api-key",
      "google-api-key",
      "npm-token",
      "jwt",
      "url-password",
      "env-assignment"
    ];
    DEFAULT_FIND_SECRETS = {
      kinds: SECRET_KINDS,
      allow: []
    };
    PRIORITY = {
      "private-key": 4,
      "aws-access-key": 3,
      "github-token": 3,
      "gitlab-token": 3,
      "slack-token": 3,
      "slack-webhook": 3,
      "stripe-key": 3,
      "anthropic-api-key": 3,
      "openai-api-key": 3,
      "google-api-key": 3,
      "npm-token": 3,
      jwt: 3,
      "aws-secret-key": 2,
      "url-password": 1,
      "env-assignment": 0
    };
    MARKER_PREFIX = "[REDACTED:";
    TOKEN_MIN_ENTROPY = 2.5;
    ENV_MIN_LENGTH = 8;
    ENV_MIN_ENTROPY = 2.5;
    MAX_KEY_LENGTH = 100;
    MAX_VALUE_LENGTH = 1e3;
    ASCII_COUNTS = new Uint32Array(128);
    BEFORE = String.raw`(?<!\w)(?<!(?<!----)-)`;
    AFTER = String.raw`(?!\w)(?!-(?!----))`;
    BEFORE_B64 = String.raw`(?<![\w+/])(?<!(?<!----)-)`;
    AFTER_B64 = String.raw`(?![\w+/=])(?!-(?!----))`;
    token = (body, before = BEFORE, after = AFTER) => new RegExp(before + body + after, "g");
    TOKEN_RULES = [
      { kind: "aws-access-key", pattern: token("(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}", BEFORE_B64, AFTER_B64), bodyFrom: 4 },
      { kind: "github-token", pattern: token(String.raw`(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{50,})`), bodyFrom: 4 },
      {
        kind: "gitlab-token",
        pattern: token(String.raw`glpat-[\w-]{20,}`),
        bodyFrom: 6,
        check: (body) => /[A-Z0-9]/.test(body)
        // not a kebab-case slug
      },
      {
        kind: "slack-token",
        pattern: token("xox[abposr]-[A-Za-z0-9-]{10,}"),
        bodyFrom: 5,
        check: (body) => /[0-9]/.test(body)
      },
      {
        kind: "slack-webhook",
        pattern: token(String.raw`(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[\w/+-]{20,}`),
        bodyFrom: 0
      },
      { kind: "stripe-key", pattern: token("(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"), bodyFrom: 8 },
      { kind: "anthropic-api-key", pattern: token(String.raw`sk-ant-[\w-]{20,}`), bodyFrom: 7, check: hasMixedCaseAndDigit },
      {
        // Kebab-case slugs that happen to start with `sk-` are all lower case: the mixed-case
        // check is what keeps them out.
        kind: "openai-api-key",
        pattern: token(String.raw`sk-(?!ant-)[\w-]{20,}`),
        bodyFrom: 3,
        check: hasMixedCaseAndDigit
      },
      { kind: "google-api-key", pattern: token(String.raw`AIza[\w-]{35}`, BEFORE_B64, AFTER_B64), bodyFrom: 4 },
      { kind: "npm-token", pattern: token("npm_[A-Za-z0-9]{36}"), bodyFrom: 4 },
      { kind: "jwt", pattern: token(String.raw`eyJ[\w-]{10,}\.ey[\w-]{10,}\.[\w-]{10,}`), bodyFrom: 0 }
    ];
    AWS_KEYWORD = /aws|secret/gi;
    AWS_SECRET_VALUE = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])/g;
    AWS_SECRET_NAME = /(?:aws|secret)[\w. -]{0,30}$/i;
    AWS_SECRET_REACH = 30 + 1 + 4 + 2 + 4 + 1 + 40;
    PEM_BEGIN = /-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----/g;
    PEM_END = /-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----/g;
    PEM_BODY_LINES = /(?:(?:\r?\n|\\r\\n|\\n)[ \t]*[A-Za-z0-9+/=]{8,})+/y;
    PEM_MATERIAL = /[A-Za-z0-9+/=]{20}/;
    URL_USERINFO = /:\/\/([^\s:/@?#[\]]{1,256}):([^\s@/?#]{1,256})@(?=\w|\[[0-9A-Fa-f:])/g;
    ENV_KEYWORD = /secret|token|passw(?:or)?d|api[_-]?key|private[_-]?key|access[_-]?key|auth/gi;
    SECRET_KEY_NAME = /secret|token|passw(?:or)?d|apikey|privatekey|accesskey|auth(?!or(?!iz))/i;
    AUTH_SCHEME = /(?:Bearer|Basic|Token|Bot)[ \t]+/iy;
  }
});

// dist/api/memories.js
import { statSync as statSync9 } from "node:fs";
import { join as join14 } from "node:path";
function locate(ctx, id) {
  assertSafeId(id);
  const tiers = [
    { scope: "project", paths: ctx.paths, base: ctx.root }
  ];
  if (ctx.includeGlobal)
    tiers.push({ scope: "global", paths: ctx.global, base: ctx.global.cortexDir });
  for (const tier of tiers) {
    const path3 = memoryPath(tier.paths, id);
    try {
      if (statSync9(path3).isFile())
        return { scope: tier.scope, path: path3, base: tier.base };
    } catch {
    }
  }
  return void 0;
}
function getMemory(ctx, id) {
  const where = locate(ctx, id);
  if (!where)
    throw new MemoryNotFoundError(id);
  const paths = where.scope === "project" ? ctx.paths : ctx.global;
  const read2 = readMemoryById(paths, id, where.base);
  if (!read2.memory)
    throw unreadable(read2.diagnostics.find((d) => d.severity === "error"));
  return {
    memory: read2.memory,
    file: read2.diagnostics[0]?.file ?? (where.scope === "project" ? `.cortex/memories/${id}.md` : read2.path),
    scope: where.scope,
    diagnostics: read2.diagnostics
  };
}
function unreadable(d) {
  return new ParseError(d ? `${d.file}${d.line ? `:${d.line}` : ""}: ${d.reason}` : "The memory file cannot be read.", {
    hint: d?.hint ?? "Run `cortex lint` to see what is wrong."
  });
}
function listMemories(ctx, input = {}) {
  const options = searchOptionsOf(ctx, input);
  const tiers = openIndexes(ctx, input.scope ? { scope: input.scope } : {});
  const docs = tiers.flatMap((t) => t.index.filter(options));
  const sort = input.sort ?? "updated";
  const cmp = {
    updated: (a, b) => b.updated.localeCompare(a.updated),
    created: (a, b) => b.created.localeCompare(a.created),
    priority: (a, b) => b.priority - a.priority,
    id: () => 0
  };
  if (!cmp[sort])
    throw new UsageError(`Unknown sort "${sort}".`, { hint: "Use updated, created, priority or id." });
  docs.sort((a, b) => cmp[sort](a, b) || a.id.localeCompare(b.id));
  const limited = input.limit !== void 0 ? docs.slice(0, input.limit) : docs;
  return {
    memories: limited.map((doc) => toResult(doc, 0, [])),
    total: docs.length,
    diagnostics: allDiagnostics(tiers)
  };
}
async function updateMemory(ctx, id, input) {
  if (input.type !== void 0 && !isMemoryType(input.type)) {
    throw new UsageError(`Unknown memory type "${input.type}".`, { hint: `Use one of: ${MEMORY_TYPES.join(", ")}.` });
  }
  if (input.status !== void 0 && !isMemoryStatus(input.status)) {
    throw new UsageError(`Unknown status "${input.status}".`, { hint: `Use one of: ${MEMORY_STATUSES.join(", ")}.` });
  }
  if (input.priority !== void 0 && (!Number.isInteger(input.priority) || input.priority < 1 || input.priority > 10)) {
    throw new UsageError(`Priority must be an integer from 1 to 10, got ${input.priority}.`);
  }
  if (input.confidence !== void 0 && !(input.confidence >= 0 && input.confidence <= 1)) {
    throw new UsageError(`Confidence must be a number from 0 to 1, got ${input.confidence}.`);
  }
  const { memory, scope, file } = getMemory(ctx, id);
  const paths = scope === "project" ? ctx.paths : ctx.global;
  return withLock(join14(paths.cacheDir, "locks", "write.lock"), async () => {
    const next = { ...memory, tags: [...memory.tags] };
    if (input.summary !== void 0) {
      const s = input.summary.replace(/\s+/g, " ").trim();
      if (s === "")
        throw new UsageError("The summary must not be empty.");
      next.summary = redactSecrets(s).text;
    }
    if (input.body !== void 0)
      next.body = redactSecrets(normalizeBody(input.body)).text;
    if (input.type !== void 0)
      next.type = input.type;
    if (input.priority !== void 0)
      next.priority = input.priority;
    if (input.confidence !== void 0)
      next.confidence = input.confidence;
    if (input.pinned !== void 0)
      next.pinned = input.pinned;
    if (input.status !== void 0)
      next.status = input.status;
    if (input.topic !== void 0) {
      if (input.topic === null || input.topic.trim() === "")
        delete next.topic;
      else
        next.topic = input.topic.trim();
    }
    if (input.addTags)
      next.tags = normalizeTags([...next.tags, ...input.addTags]);
    if (input.removeTags) {
      const drop = new Set(normalizeTags(input.removeTags));
      next.tags = next.tags.filter((t) => !drop.has(t));
    }
    if (renderMemory(next) === renderMemory(memory))
      return { memory, file, changed: false };
    next.updated = formatDate(ctx.now());
    writeMemory(paths, next);
    const tier = openTierIndex(ctx, scope);
    saveQuietly(tier.index, paths);
    return { memory: next, file, changed: true };
  });
}
async function touchMemory(ctx, id) {
  const { memory, scope, file } = getMemory(ctx, id);
  const paths = scope === "project" ? ctx.paths : ctx.global;
  return withLock(join14(paths.cacheDir, "locks", "write.lock"), () => {
    const next = { ...memory, updated: formatDate(ctx.now()) };
    writeMemory(paths, next);
    return { memory: next, file, changed: true };
  });
}
function checkMemoryFile(ctx, id) {
  const where = locate(ctx, id);
  if (!where)
    throw new MemoryNotFoundError(id);
  const paths = where.scope === "project" ? ctx.paths : ctx.global;
  const read2 = readMemoryById(paths, id, where.base);
  return { file: read2.diagnostics[0]?.file ?? where.path, diagnostics: read2.diagnostics, memory: read2.memory };
}
function memoryFileOf(ctx, id) {
  const where = locate(ctx, id);
  if (!where)
    throw new MemoryNotFoundError(id);
  return where.path;
}
async function forget(ctx, input) {
  const target = input.target.trim();
  if (target === "")
    throw new UsageError("Say what to forget: an id or a query.");
  let ids;
  let candidates = [];
  const isId = /^[a-z0-9][a-z0-9_-]*$/.test(target) && locate(ctx, target) !== void 0;
  if (isId) {
    ids = [{ id: target, scope: locate(ctx, target).scope }];
  } else {
    candidates = (await recall(ctx, { query: target, limit: 20, recordAccess: false, enrich: false })).results;
    if (candidates.length === 0)
      return { action: "none", memories: [] };
    if (candidates.length > 1 && !input.yes) {
      return { action: "ambiguous", memories: candidates.map((c) => ({ id: c.id, type: c.type, summary: c.summary, file: c.file })) };
    }
    ids = candidates.map((c) => ({ id: c.id, scope: c.scope }));
  }
  const done = [];
  for (const { id, scope } of ids) {
    const got = getMemory(ctx, id);
    const paths = scope === "project" ? ctx.paths : ctx.global;
    if (input.hard) {
      await withLock(join14(paths.cacheDir, "locks", "write.lock"), () => deleteMemory(paths, id));
    } else if (got.memory.status !== "archived") {
      await updateMemory(ctx, id, { status: "archived" });
    }
    done.push({ id, type: got.memory.type, summary: got.memory.summary, file: got.file });
  }
  return { action: input.hard ? "deleted" : "archived", memories: done };
}
var init_memories = __esm({
  "dist/api/memories.js"() {
    "use strict";
    init_errors();
    init_memory();
    init_memory_format();
    init_redact();
    init_lock();
    init_memory_store();
    init_paths();
    init_indexes();
    init_recall();
  }
});

// dist/api/review-queue.js
import { readFileSync as readFileSync12 } from "node:fs";
import { join as join15 } from "node:path";
function reviewQueuePath(paths) {
  return join15(paths.cacheDir, "review.jsonl");
}
function lockPath(paths) {
  return join15(paths.cacheDir, "locks", "review.lock");
}
function isEntry(value2) {
  const v = value2;
  return typeof v === "object" && v !== null && typeof v.kind === "string" && typeof v.id === "string" && typeof v.created === "string";
}
function readAll(paths) {
  let text3;
  try {
    text3 = readFileSync12(reviewQueuePath(paths), "utf8");
  } catch (err) {
    if (isErrnoCode(err, "ENOENT") || isErrnoCode(err, "ENOTDIR"))
      return [];
    throw err;
  }
  const entries = [];
  const seen = /* @__PURE__ */ new Set();
  for (const line of text3.split("\n")) {
    if (line.trim() === "")
      continue;
    try {
      const value2 = JSON.parse(line);
      if (isEntry(value2) && !seen.has(value2.id)) {
        seen.add(value2.id);
        entries.push(value2);
      }
    } catch {
    }
  }
  return entries;
}
function writeAll(paths, entries) {
  writeFileAtomic(reviewQueuePath(paths), entries.map((e) => `${JSON.stringify(e)}
`).join(""));
}
function listReview(paths, options = {}) {
  const all = readAll(paths);
  return options.kind === void 0 ? all : all.filter((e) => e.kind === options.kind);
}
async function appendReview(paths, entries) {
  if (entries.length === 0)
    return 0;
  return withLock(lockPath(paths), () => {
    const all = readAll(paths);
    const ids = new Set(all.map((e) => e.id));
    let added = 0;
    for (const entry of entries) {
      if (!isEntry(entry) || ids.has(entry.id))
        continue;
      ids.add(entry.id);
      all.push(entry);
      added++;
    }
    if (added > 0)
      writeAll(paths, all);
    return added;
  });
}
async function removeReview(paths, which) {
  const drop = Array.isArray(which) ? /* @__PURE__ */ ((ids) => (e) => ids.has(e.id))(new Set(which)) : which;
  return withLock(lockPath(paths), () => {
    const all = readAll(paths);
    const kept = all.filter((e) => !drop(e));
    if (kept.length !== all.length)
      writeAll(paths, kept);
    return all.length - kept.length;
  });
}
function pairId(kind, a, b) {
  return a < b ? `${kind}:${a}:${b}` : `${kind}:${b}:${a}`;
}
var init_review_queue = __esm({
  "dist/api/review-queue.js"() {
    "use strict";
    init_errors();
    init_atomic();
    init_lock();
  }
});

// dist/api/consolidate.js
var consolidate_exports = {};
__export(consolidate_exports, {
  acceptSuggested: () => acceptSuggested,
  listConsolidation: () => listConsolidation,
  mergeMemories: () => mergeMemories,
  rejectSuggested: () => rejectSuggested
});
import { join as join16 } from "node:path";
function node(doc) {
  return { id: doc.id, type: doc.type, summary: doc.summary, status: doc.status, scope: doc.scope };
}
function listConsolidation(ctx) {
  const view = openGraph(ctx);
  const duplicates = [];
  for (const entry of listReview(ctx.paths, { kind: "consolidate" })) {
    const a = typeof entry.a === "string" ? findDoc(view.tiers, entry.a) : void 0;
    const b = typeof entry.b === "string" ? findDoc(view.tiers, entry.b) : void 0;
    if (!a || !b || a.doc.status !== "active" || b.doc.status !== "active")
      continue;
    duplicates.push({ id: entry.id, a: node(a.doc), b: node(b.doc), score: typeof entry.score === "number" ? entry.score : 0, created: entry.created });
  }
  duplicates.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  const suggested = [];
  for (const e of view.graph.edges) {
    if (e.status !== "suggested")
      continue;
    const a = findDoc(view.tiers, e.source);
    const b = findDoc(view.tiers, e.target);
    if (!a || !b)
      continue;
    const tier = a.tier.scope === "global" && b.tier.scope === "global" ? a.tier : view.tiers[0];
    suggested.push({
      source: node(a.doc),
      target: node(b.doc),
      relation: e.relation,
      strength: e.strength,
      origin: e.origin,
      file: displayPath(join16(tier.paths.edgesDir, edgeFileName(e)), tier.base)
    });
  }
  suggested.sort((x, y) => y.strength - x.strength || (x.file < y.file ? -1 : 1));
  return { duplicates, suggested };
}
function pairTier(ctx, a, b) {
  const view = openGraph(ctx);
  const x = findDoc(view.tiers, a);
  const y = findDoc(view.tiers, b);
  if (!x)
    throw new MemoryNotFoundError(a, { hint: "Run `cortex consolidate` to see the pending proposals." });
  if (!y)
    throw new MemoryNotFoundError(b, { hint: "Run `cortex consolidate` to see the pending proposals." });
  const scope = x.tier.scope === "global" && y.tier.scope === "global" ? "global" : "project";
  return { paths: scope === "project" ? ctx.paths : ctx.global, base: tierBase(ctx, scope) };
}
function suggestedBetween(tier, a, b, relation) {
  const relations = relation === void 0 ? [...RELATIONS] : [relationOf(relation).relation];
  const found = [];
  for (const r of relations) {
    for (const [source, target] of [
      [a, b],
      [b, a]
    ]) {
      const edge = readEdge(tier.paths, { source, relation: r, target }, tier.base)?.edge;
      if (edge && edge.status === "suggested")
        found.push(edge);
    }
  }
  return found;
}
async function withTierEdges(tier, fn) {
  return withLock(join16(tier.paths.cacheDir, "locks", "write.lock"), async () => {
    const cache2 = EdgeCache.load(tier.paths);
    cache2.refresh(tier.paths, { base: tier.base });
    try {
      return await fn(cache2);
    } finally {
      try {
        cache2.save(tier.paths);
      } catch {
      }
    }
  });
}
async function acceptSuggested(ctx, input) {
  assertSafeId(input.a);
  assertSafeId(input.b);
  const tier = pairTier(ctx, input.a, input.b);
  const edges = await withTierEdges(tier, (cache2) => suggestedBetween(tier, input.a, input.b, input.relation).map((edge) => {
    const { file } = writeEdgeRecorded(tier, cache2, { ...edge, status: "active" });
    return { source: edge.source, relation: edge.relation, target: edge.target, file };
  }));
  return { edges, dismissed: false };
}
async function rejectSuggested(ctx, input) {
  assertSafeId(input.a);
  assertSafeId(input.b);
  const tier = pairTier(ctx, input.a, input.b);
  const edges = await withTierEdges(tier, (cache2) => suggestedBetween(tier, input.a, input.b, input.relation).map((edge) => {
    deleteEdgeRecorded(tier, cache2, edge);
    return {
      source: edge.source,
      relation: edge.relation,
      target: edge.target,
      file: displayPath(join16(tier.paths.edgesDir, edgeFileName(edge)), tier.base)
    };
  }));
  const dismissed = await removeReview(ctx.paths, [pairId("consolidate", input.a, input.b)]) > 0;
  if (edges.length > 0 || dismissed) {
    await appendReview(ctx.paths, [{ kind: "rejected", id: pairId("rejected", input.a, input.b), created: formatDate(ctx.now()), a: input.a, b: input.b }]);
  }
  return { edges, dismissed };
}
function mergedBody(summary, primary, secondary) {
  const parts = [];
  for (const text3 of [primary.summary, primary.body, secondary.summary, secondary.body]) {
    const t = text3.trim();
    if (t === "" || t === summary.trim() || parts.includes(t))
      continue;
    parts.push(t);
  }
  return parts.join("\n\n");
}
async function mergeMemories(ctx, input) {
  if (input.a === input.b)
    throw new UsageError("Cannot merge a memory with itself.", { hint: "Name two different memories." });
  const x = getMemory(ctx, input.a);
  const y = getMemory(ctx, input.b);
  if (x.scope !== y.scope) {
    throw new UsageError(`${input.a} is a ${x.scope} memory and ${input.b} a ${y.scope} one.`, { hint: "Merge memories of the same scope." });
  }
  for (const m of [x.memory, y.memory]) {
    if (m.status === "superseded") {
      throw new UsageError(`${m.id} is already superseded.`, { hint: `Run \`cortex traverse ${m.id} --types supersedes --direction in\` to find what replaced it.` });
    }
  }
  const paths = x.scope === "project" ? ctx.paths : ctx.global;
  const base = tierBase(ctx, x.scope);
  const files = [memoryPath(paths, input.a), memoryPath(paths, input.b)];
  if (!input.force) {
    const { fileStatuses: fileStatuses2 } = await Promise.resolve().then(() => (init_status(), status_exports));
    const statuses = await fileStatuses2(x.scope === "project" ? ctx.root : paths.cortexDir, files);
    if (!statuses) {
      throw new ConflictError("Not in a git repository: nothing could undo this merge.", { hint: "Run it inside a git repository, or pass --force." });
    }
    const dirty = statuses.filter((s) => !s.clean);
    if (dirty.length > 0) {
      throw new ConflictError(`Uncommitted changes: ${dirty.map((s) => `${s.path} (${s.status.replace(/^\*/, "")})`).join(", ")}.`, {
        hint: "Commit them first so git can undo the merge, or pass --force.",
        data: { files: dirty.map((s) => s.path) }
      });
    }
  }
  const head = x.scope === "project" ? await (await Promise.resolve().then(() => (init_head(), head_exports))).readHead(ctx.root) : void 0;
  return withLock(join16(paths.cacheDir, "locks", "write.lock"), async () => {
    const a = x.memory;
    const b = y.memory;
    const aFirst = a.priority !== b.priority ? a.priority > b.priority : a.updated >= b.updated;
    const [primary, secondary] = aFirst ? [a, b] : [b, a];
    const summary = (input.summary ?? primary.summary).replace(/\s+/g, " ").trim();
    if (summary === "")
      throw new UsageError("The summary must not be empty.");
    const now = formatDate(ctx.now());
    const tier = openTierIndex(ctx, x.scope, { save: false });
    let id = buildId(summary, ctx.randomBytes);
    while (tier.index.docs.has(id))
      id = buildId(summary, ctx.randomBytes);
    const files2 = [.../* @__PURE__ */ new Set([...primary.source.files ?? [], ...secondary.source.files ?? []])];
    const merged = {
      id,
      type: primary.type,
      summary,
      scope: primary.scope,
      priority: Math.max(a.priority, b.priority),
      confidence: 1,
      pinned: a.pinned || b.pinned,
      status: "active",
      tags: normalizeTags([...primary.tags, ...secondary.tags]),
      ...(primary.topic ?? secondary.topic) !== void 0 ? { topic: primary.topic ?? secondary.topic } : {},
      created: now,
      updated: now,
      source: {
        kind: "consolidation",
        layer: "manual",
        ...head?.branch !== void 0 ? { branch: head.branch } : {},
        ...head?.commit !== void 0 ? { commit: head.commit.slice(0, 12) } : {},
        ...files2.length > 0 ? { files: files2 } : {}
      },
      body: mergedBody(summary, primary, secondary),
      extra: { ...secondary.extra, ...primary.extra }
    };
    renderMemory(merged);
    const written = writeMemory(paths, merged);
    const superseded = [];
    for (const old of [a, b]) {
      const w = writeMemory(paths, { ...old, status: "superseded", updated: now });
      superseded.push({ id: old.id, file: displayPath(w.path, base) });
    }
    const tierPaths2 = { paths, base };
    const cache2 = EdgeCache.load(paths);
    cache2.refresh(paths, { base });
    const edges = [];
    for (const old of [a, b]) {
      const edge = buildEdge({
        source: id,
        target: old.id,
        relation: "supersedes",
        created: now,
        strength: 1,
        origin: "consolidation",
        body: `Merged ${a.id} and ${b.id} into ${id} (cortex consolidate --merge).`
      });
      const { file } = writeEdgeRecorded(tierPaths2, cache2, edge);
      edges.push({ source: id, relation: "supersedes", target: old.id, file });
    }
    try {
      cache2.save(paths);
    } catch {
    }
    openTierIndex(ctx, x.scope);
    await removeReview(paths, [pairId("consolidate", a.id, b.id)]);
    return { memory: merged, file: displayPath(written.path, base), superseded, edges };
  });
}
var init_consolidate = __esm({
  "dist/api/consolidate.js"() {
    "use strict";
    init_errors();
    init_edge();
    init_memory();
    init_memory_format();
    init_edge_store();
    init_lock();
    init_memory_store();
    init_paths();
    init_graph2();
    init_edge_cache();
    init_indexes();
    init_memories();
    init_review_queue();
  }
});

// dist/git/staleness.js
var staleness_exports = {};
__export(staleness_exports, {
  STALENESS_CACHE_VERSION: () => STALENESS_CACHE_VERSION,
  computeStaleness: () => computeStaleness
});
import { existsSync as existsSync8, readFileSync as readFileSync13 } from "node:fs";
import { join as join17 } from "node:path";
function loadCache(path3) {
  try {
    const c = JSON.parse(readFileSync13(path3, "utf8"));
    return c.version === STALENESS_CACHE_VERSION && c.reasons && c.blobs && c.commits ? c : void 0;
  } catch {
    return void 0;
  }
}
function keyOf2(m) {
  return `${m.source.commit ?? ""}|${m.source.branch ?? ""}|${(m.source.files ?? []).join("\0")}`;
}
async function computeStaleness(ctx, memories) {
  const root = findGitRoot(ctx.root);
  if (!root)
    return {};
  const head = await readHead(root);
  if (!head.commit)
    return {};
  const r = gitReader(root);
  const cachePath = join17(ctx.paths.cacheDir, "staleness.json");
  const local = await listBranches(r).catch(() => []);
  const remote = await listRemoteBranches(r);
  const refs = [...local, ...remote].join("\n");
  const old = loadCache(cachePath);
  const cache2 = {
    version: STALENESS_CACHE_VERSION,
    head: head.commit,
    refs,
    reasons: old && old.head === head.commit && old.refs === refs ? old.reasons : {},
    blobs: old?.blobs ?? {},
    commits: old?.commits ?? {}
  };
  let dirty = old === void 0 || cache2.reasons !== old.reasons;
  const branches = /* @__PURE__ */ new Set([...local, ...remote.map((b) => b.slice(b.indexOf("/") + 1))]);
  const trees = /* @__PURE__ */ new Map();
  const out = {};
  const fullCommit = async (short) => {
    if (!(short in cache2.commits)) {
      cache2.commits[short] = await resolveCommit(r, short).catch(() => "");
      dirty = true;
    }
    return cache2.commits[short] || void 0;
  };
  const blob = async (commit2, path3) => {
    const key = `${commit2}:${path3}`;
    if (!(key in cache2.blobs)) {
      cache2.blobs[key] = await blobAt(r, commit2, path3, trees).catch(() => null);
      dirty = true;
    }
    return cache2.blobs[key] ?? null;
  };
  for (const m of memories) {
    if (!m.source.commit)
      continue;
    const key = keyOf2(m);
    let reasons = cache2.reasons[key];
    if (reasons === void 0) {
      reasons = await reasonsFor(r, m, { head: head.commit, branch: head.branch, root, branches, fullCommit, blob });
      cache2.reasons[key] = reasons;
      dirty = true;
    }
    if (reasons.length > 0)
      out[m.id] = reasons;
  }
  if (dirty) {
    try {
      writeFileAtomic(cachePath, JSON.stringify(cache2));
    } catch {
    }
  }
  return out;
}
async function reasonsFor(r, m, p) {
  const commit2 = await p.fullCommit(m.source.commit);
  if (!commit2)
    return [];
  const short = m.source.commit.slice(0, 7);
  const reasons = [];
  for (const raw of m.source.files ?? []) {
    const path3 = raw.replace(/\\/g, "/").replace(/^\.?\//, "");
    const then = await p.blob(commit2, path3);
    const now = await p.blob(p.head, path3);
    if (now === null && !existsSync8(join17(p.root, path3)))
      reasons.push(`${path3} no longer exists`);
    else if (then !== null && now !== then)
      reasons.push(`${path3} changed since ${short}`);
  }
  const branch = m.source.branch;
  if (branch && branch !== p.branch && !p.branches.has(branch) && !await isAncestor(r, commit2, p.head)) {
    reasons.push(`branch ${branch} is gone`);
  }
  return reasons;
}
var STALENESS_CACHE_VERSION;
var init_staleness = __esm({
  "dist/git/staleness.js"() {
    "use strict";
    init_atomic();
    init_paths();
    init_head();
    init_repo();
    STALENESS_CACHE_VERSION = 1;
  }
});

// dist/core/decay.js
function toEpochMs(time) {
  return typeof time === "number" ? time : time.getTime();
}
function parseTime(iso) {
  if (iso === void 0)
    return void 0;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? void 0 : t;
}
function clamp01(value2) {
  if (!(value2 > 0))
    return 0;
  return value2 > 1 ? 1 : value2;
}
function halfLifeFor(memory, options = {}) {
  const { config = DEFAULT_HALF_LIFE.config, accessCount = DEFAULT_HALF_LIFE.accessCount, centrality: centrality2 = DEFAULT_HALF_LIFE.centrality } = options;
  if (memory.pinned)
    return Infinity;
  const base = config.decay.halfLives[memory.type];
  if (base === null || base === void 0 || !(base > 0))
    return Infinity;
  let halfLife = base;
  if (accessCount > config.decay.accessDoublingThreshold)
    halfLife *= 2;
  if (centrality2 > config.decay.centralityDoublingThreshold)
    halfLife *= 2;
  return halfLife;
}
function confirmedAt(memory, options) {
  const edited = parseTime(memory.updated) ?? parseTime(memory.created);
  const accessed = parseTime(options.lastAccess);
  if (edited === void 0 && accessed === void 0)
    return toEpochMs(options.now);
  return Math.max(edited ?? -Infinity, accessed ?? -Infinity);
}
function decayedConfidence(memory, options) {
  const { now, lastAccess = DEFAULT_DECAY.lastAccess } = options;
  const confidence = clamp01(memory.confidence);
  const halfLife = halfLifeFor(memory, options);
  if (halfLife === Infinity || confidence === 0)
    return confidence;
  const ageDays = Math.max(0, (toEpochMs(now) - confirmedAt(memory, { now, lastAccess })) / DAY_MS);
  return clamp01(confidence * 0.5 ** (ageDays / halfLife));
}
function belowThresholdSince(memory, options) {
  const { now, lastAccess = DEFAULT_DECAY.lastAccess, threshold } = options;
  const confidence = clamp01(memory.confidence);
  const start = confirmedAt(memory, { now, lastAccess });
  if (confidence < threshold)
    return start;
  const halfLife = halfLifeFor(memory, options);
  if (halfLife === Infinity || !(threshold > 0))
    return null;
  return start + halfLife * Math.log2(confidence / threshold) * DAY_MS;
}
var DAY_MS, DEFAULT_HALF_LIFE, DEFAULT_DECAY;
var init_decay = __esm({
  "dist/core/decay.js"() {
    "use strict";
    init_config();
    DAY_MS = 864e5;
    DEFAULT_HALF_LIFE = { config: DEFAULT_CONFIG, accessCount: 0, centrality: 0 };
    DEFAULT_DECAY = {
      ...DEFAULT_HALF_LIFE,
      lastAccess: void 0
    };
  }
});

// dist/core/rank.js
function finiteOr(value2, fallback) {
  return typeof value2 === "number" && Number.isFinite(value2) ? value2 : fallback;
}
function accessCountOf(signal) {
  return Math.max(0, finiteOr(signal?.accessCount, 0));
}
function maxAccessCount(signals) {
  let max = 0;
  for (const id in signals)
    max = Math.max(max, accessCountOf(signals[id]));
  return max;
}
function scoreMemory(memory, ctx) {
  const { now, config = DEFAULT_RANK.config, signals = DEFAULT_RANK.signals, centrality: centralities = DEFAULT_RANK.centrality, currentBranch, maxAccess } = ctx;
  const signal = signals[memory.id];
  const accessCount = accessCountOf(signal);
  const centrality2 = clamp01(finiteOr(centralities[memory.id], 0));
  const normaliser = typeof maxAccess === "number" && Number.isFinite(maxAccess) ? maxAccess : maxAccessCount(signals);
  const max = Math.max(accessCount, normaliser);
  const parts = {
    decayed: decayedConfidence(memory, { now, config, accessCount, centrality: centrality2, lastAccess: signal?.lastAccess }),
    priority: clamp01(finiteOr(memory.priority, 0) / 10),
    centrality: centrality2,
    usage: max > 0 ? clamp01(Math.log(accessCount + 1) / Math.log(max + 1)) : 0,
    branchBoost: currentBranch !== void 0 && memory.source.branch === currentBranch ? finiteOr(config.ranking.branchBoost, 0) : 0
  };
  const w = config.ranking.weights;
  const raw = parts.decayed * w.confidence + parts.priority * w.priority + parts.centrality * w.centrality + parts.usage * w.usage + parts.branchBoost;
  return { rank: clamp01(raw), parts };
}
function compareRanked(a, b) {
  if (a.rank !== b.rank)
    return b.rank - a.rank;
  if (a.memory.id !== b.memory.id)
    return a.memory.id < b.memory.id ? -1 : 1;
  if (a.memory.scope !== b.memory.scope)
    return a.memory.scope === "project" ? -1 : 1;
  return 0;
}
function rankMemories(memories, ctx) {
  const full = { ...DEFAULT_RANK, ...ctx };
  const maxAccess = typeof full.maxAccess === "number" && Number.isFinite(full.maxAccess) ? full.maxAccess : maxAccessCount(full.signals);
  const scoreCtx = { ...full, maxAccess };
  return memories.map((memory) => {
    const { rank, parts } = scoreMemory(memory, scoreCtx);
    return { memory, rank, parts };
  }).sort(compareRanked);
}
var DEFAULT_RANK;
var init_rank = __esm({
  "dist/core/rank.js"() {
    "use strict";
    init_config();
    init_decay();
    DEFAULT_RANK = {
      config: DEFAULT_CONFIG,
      signals: {},
      centrality: {},
      currentBranch: void 0,
      maxAccess: void 0
    };
  }
});

// dist/core/lifecycle.js
function day(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}
function round2(value2) {
  return (Math.floor(value2 * 100) / 100).toFixed(2);
}
function planLifecycle(memories, options) {
  const { now: nowInput, config, signals, centrality: centrality2, belowSince } = { ...DEFAULT_LIFECYCLE, ...options };
  const now = toEpochMs(nowInput);
  const at = formatDate(new Date(now));
  const { archiveBelow, archiveAfterDays, pruneAfterDays, hubCentrality } = config.lifecycle;
  const out = [];
  for (const memory of memories) {
    const signal = signals[memory.id];
    const accessCount = accessCountOf(signal);
    const hub = clamp01(centrality2[memory.id] ?? 0);
    const lastAccess = parseTime(signal?.lastAccess);
    if (memory.status === "active") {
      if (memory.pinned || hub > hubCentrality)
        continue;
      const decay = { now, config, accessCount, centrality: hub, lastAccess: signal?.lastAccess };
      if (halfLifeFor(memory, decay) === Infinity)
        continue;
      const decayed = decayedConfidence(memory, decay);
      if (!(decayed < archiveBelow))
        continue;
      const since = parseTime(belowSince[memory.id]) ?? belowThresholdSince(memory, { now, config, accessCount, centrality: hub, lastAccess: signal?.lastAccess, threshold: archiveBelow });
      if (since === null || now - since < archiveAfterDays * DAY_MS)
        continue;
      out.push({
        id: memory.id,
        from: "active",
        to: "archived",
        at,
        reason: `decayed confidence ${round2(decayed)} has been below ${archiveBelow} since ${day(since)} (at least ${archiveAfterDays} days)`
      });
    } else if (memory.status === "archived") {
      const archivedAt = parseTime(memory.updated) ?? parseTime(memory.created);
      if (lastAccess !== void 0 && (archivedAt === void 0 || lastAccess > archivedAt)) {
        out.push({
          id: memory.id,
          from: "archived",
          to: "active",
          at,
          reason: `accessed on ${day(lastAccess)}, after it was archived${archivedAt === void 0 ? "" : ` on ${day(archivedAt)}`}`
        });
        continue;
      }
      if (memory.pinned || hub > hubCentrality || archivedAt === void 0)
        continue;
      const touched = Math.max(archivedAt, lastAccess ?? -Infinity);
      if (now - touched >= pruneAfterDays * DAY_MS) {
        out.push({
          id: memory.id,
          from: "archived",
          to: "pruned",
          at,
          reason: `archived and untouched since ${day(touched)} (at least ${pruneAfterDays} days)`
        });
      }
    }
  }
  return out.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
function isTieredDecision(memory) {
  return memory.status === "active" && (memory.type === "decision" || memory.type === "rejected");
}
function tierRankedDecisions(ranked, options) {
  const { now: nowInput, config, signals } = { ...DEFAULT_TIER_DECISIONS, ...options };
  const now = toEpochMs(nowInput);
  const { fullCap, oneLineCap, recentDays } = config.surface.decisions;
  const recentMs = recentDays * DAY_MS;
  const fresh = [];
  const aging = [];
  for (const { memory, rank } of ranked) {
    if (!isTieredDecision(memory))
      continue;
    const edited = Math.max(parseTime(memory.created) ?? -Infinity, parseTime(memory.updated) ?? -Infinity);
    const accessed = parseTime(signals[memory.id]?.lastAccess);
    const id = memory.id;
    if (memory.pinned)
      fresh.push({ id, rank, tier: "full", reason: "pinned" });
    else if (now - edited <= recentMs) {
      fresh.push({ id, rank, tier: "full", reason: `recent: updated ${day(edited)} (within ${recentDays} days)` });
    } else if (accessed !== void 0 && now - accessed <= recentMs) {
      fresh.push({ id, rank, tier: "full", reason: `recently accessed: ${day(accessed)} (within ${recentDays} days)` });
    } else {
      const when = Number.isFinite(edited) ? `updated ${day(edited)}` : "no valid date";
      aging.push({
        id,
        rank,
        tier: "one-line",
        reason: `aging: ${when}, ${accessed === void 0 ? "never accessed" : `last accessed ${day(accessed)}`}`
      });
    }
  }
  const out = fresh.slice(0, fullCap);
  const oneLine5 = [
    ...fresh.slice(fullCap).map((t) => ({
      ...t,
      tier: "one-line",
      reason: `${t.reason}; beyond the full-text cap of ${fullCap}`
    })),
    ...aging
  ];
  out.push(...oneLine5.slice(0, oneLineCap));
  for (const t of oneLine5.slice(oneLineCap)) {
    out.push({
      ...t,
      tier: "archive-only",
      reason: `${t.reason}; beyond the caps of ${fullCap} full and ${oneLineCap} one-line decisions`
    });
  }
  return out;
}
function tierDecisions(memories, ctx) {
  return tierRankedDecisions(rankMemories(memories.filter(isTieredDecision), ctx), {
    now: ctx.now,
    config: ctx.config ?? DEFAULT_CONFIG,
    signals: ctx.signals ?? {}
  });
}
var DEFAULT_LIFECYCLE, DEFAULT_TIER_DECISIONS;
var init_lifecycle = __esm({
  "dist/core/lifecycle.js"() {
    "use strict";
    init_config();
    init_decay();
    init_memory();
    init_rank();
    DEFAULT_LIFECYCLE = {
      config: DEFAULT_CONFIG,
      signals: {},
      centrality: {},
      belowSince: {}
    };
    DEFAULT_TIER_DECISIONS = {
      config: DEFAULT_CONFIG,
      signals: {}
    };
  }
});

// dist/core/tokens.js
function sanitizeCharsPerToken(value2) {
  return typeof value2 === "number" && Number.isFinite(value2) && value2 > 0 ? value2 : DEFAULT_ESTIMATE_TOKENS.charsPerToken;
}
function estimateTokens(text3, options = {}) {
  const { charsPerToken } = { ...DEFAULT_ESTIMATE_TOKENS, ...options };
  return Math.ceil(text3.length / sanitizeCharsPerToken(charsPerToken));
}
function countTokens(text3, options = {}) {
  const { tokenizer, charsPerToken } = { ...DEFAULT_COUNT_TOKENS, ...options };
  if (tokenizer) {
    const n = tokenizer(text3);
    if (Number.isFinite(n) && n >= 0)
      return Math.ceil(n);
  }
  return estimateTokens(text3, { charsPerToken });
}
var DEFAULT_ESTIMATE_TOKENS, DEFAULT_COUNT_TOKENS;
var init_tokens = __esm({
  "dist/core/tokens.js"() {
    "use strict";
    DEFAULT_ESTIMATE_TOKENS = { charsPerToken: 4 };
    DEFAULT_COUNT_TOKENS = { ...DEFAULT_ESTIMATE_TOKENS, tokenizer: void 0 };
  }
});

// dist/core/surface.js
function parseSurfaceTemplate(text3, options = {}) {
  const { file } = { ...DEFAULT_PARSE_SURFACE_TEMPLATE, ...options };
  const diagnostics = [];
  const warn = (line, reason, ruleId) => {
    diagnostics.push({ file, line, reason, ruleId, severity: "warning" });
  };
  const normalized = text3.replace(/\r\n?/g, "\n").replace(/^\uFEFF/, "");
  const lines = normalized.replace(/<!--([\s\S]*?)-->/g, (_all, inner) => {
    const blank = "\n".repeat((inner.match(/\n/g) ?? []).length);
    const types = TYPES_COMMENT.exec(inner);
    return types ? `\0${(types[1] ?? "").replace(/\s+/g, " ")}${blank}` : blank;
  }).split("\n");
  const template = { title: "", titleDepth: 1, intro: [], sections: [] };
  let sawTitle = false;
  let paragraph = [];
  let current;
  let currentLine = 0;
  const claimed = /* @__PURE__ */ new Set();
  const closeSection = () => {
    if (!current)
      return;
    if (current.types.length === 0)
      warn(currentLine, `section "${current.title}" lists no memory types and is left out`, "template-section-empty");
    else
      template.sections.push(current);
    current = void 0;
  };
  const flushParagraph = () => {
    if (paragraph.length > 0)
      template.intro.push(paragraph.join(" "));
    paragraph = [];
  };
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (line.startsWith("\0")) {
      if (!current) {
        warn(lineNo, 'a "types:" comment outside a section is ignored', "template-types-outside");
        return;
      }
      for (const name of line.slice(1).split(/[\s,]+/).filter(Boolean)) {
        if (!isMemoryType(name))
          warn(lineNo, `unknown memory type "${name}" in section "${current.title}"`, "template-unknown-type");
        else if (claimed.has(name))
          warn(lineNo, `type "${name}" is already in an earlier section`, "template-duplicate-type");
        else {
          claimed.add(name);
          current.types.push(name);
        }
      }
      return;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      const depth = (heading[1] ?? "#").length;
      const title = heading[2] ?? "";
      if (!sawTitle && template.sections.length === 0 && !current) {
        sawTitle = true;
        template.title = title;
        template.titleDepth = depth;
      } else {
        closeSection();
        current = { title, depth, types: [] };
        currentLine = lineNo;
      }
      return;
    }
    if (line === "") {
      flushParagraph();
      return;
    }
    if (current)
      warn(lineNo, `text inside section "${current.title}" is ignored`, "template-section-text");
    else
      paragraph.push(line);
  });
  flushParagraph();
  closeSection();
  if (template.sections.length === 0) {
    diagnostics.push({
      file,
      reason: 'the surface template has no section with a "types:" comment; the default template is used',
      ruleId: "template-no-sections",
      severity: "error",
      hint: 'Example: "## Gotchas" followed by "<!-- types: gotcha -->".'
    });
    if (text3 !== DEFAULT_SURFACE_TEMPLATE)
      return { template: parseSurfaceTemplate(DEFAULT_SURFACE_TEMPLATE).template, diagnostics };
  }
  return { template, diagnostics };
}
function surfaceLimits(options) {
  const config = options.config ?? DEFAULT_CONFIG;
  const s = config.surface;
  const nonNegative = (n, fallback) => Number.isFinite(n) ? Math.max(0, Math.floor(n)) : fallback;
  const maxChars = Math.min(HARD_MAX_CHARS, nonNegative(s.maxChars, HARD_MAX_CHARS));
  const charsPerToken = sanitizeCharsPerToken(s.charsPerToken);
  const budget = options.budget;
  if (typeof budget === "number" && !Number.isNaN(budget)) {
    const b = budget === Infinity ? Number.MAX_SAFE_INTEGER : nonNegative(budget, 0);
    return { targetTokens: b, maxTokens: b, maxChars, charsPerToken };
  }
  const maxTokens = nonNegative(s.maxTokens, DEFAULT_CONFIG.surface.maxTokens);
  const targetTokens = Math.min(maxTokens, nonNegative(s.targetTokens, DEFAULT_CONFIG.surface.targetTokens));
  return { targetTokens, maxTokens, maxChars, charsPerToken };
}
function cleanInline(text3, max) {
  const oneLine5 = text3.replace(MARKER_WORDS, "CORTEX MEMORY $1").replace(/\s+/g, " ").trim();
  if (oneLine5.length <= max)
    return oneLine5;
  const cut = oneLine5.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}\u2026`;
}
function planSteps(body) {
  const steps = [];
  for (const line of body.split("\n")) {
    const m = STEP_LINE.exec(line);
    if (m)
      steps.push({ text: m[2] ?? "", done: m[1] === "x" || m[1] === "X" });
  }
  return steps;
}
function bodyExcerpt(body, summary, max) {
  if (max <= 0)
    return void 0;
  const first = body.replace(/^\s+/, "").split(/\n[ \t]*\n/)[0]?.split("\n").map((l) => l.replace(/^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/, "")).join(" ").replace(/\[\[([^\]]+)\]\]/g, "$1");
  if (!first)
    return void 0;
  const text3 = cleanInline(first, max);
  if (text3 === "" || text3.toLowerCase().startsWith(summary.toLowerCase().replace(/…$/, "")))
    return void 0;
  return text3;
}
function estimateChars(text3) {
  return text3.length + (text3.match(ESCAPABLE)?.length ?? 0);
}
function sanitizeLabel(text3) {
  return text3.replace(/[^A-Za-z0-9./@:+-]+/g, "-").replace(/^-+|-+$/g, "");
}
function provenanceLabel(item) {
  return [item.session, item.branch].filter((x) => Boolean(x)).join(", ");
}
function confidenceMarker(confidence) {
  return `(~${(Math.floor(confidence * 10) / 10).toFixed(1)})`;
}
function staleNote(reasons) {
  const first = cleanInline(reasons[0] ?? "", 80);
  return reasons.length > 1 ? `${first}; +${reasons.length - 1} more` : first;
}
function omittedStepsNote(omitted) {
  return `(+${omitted} more ${omitted === 1 ? "step" : "steps"})`;
}
function approxItemText(item) {
  let line = `- ${item.summary}`;
  if (item.detail)
    line += ` \u2014 ${item.detail}`;
  if (item.stepsOmitted > 0)
    line += ` ${omittedStepsNote(item.stepsOmitted)}`;
  const label2 = provenanceLabel(item);
  if (label2)
    line += ` [${label2}]`;
  if (item.lowConfidence)
    line += ` ${confidenceMarker(item.confidence)}`;
  if (item.stale.length > 0)
    line += ` [POSSIBLY OUTDATED] (${staleNote(item.stale)})`;
  for (const step of item.steps ?? [])
    line += `
  - [${step.done ? "x" : " "}] ${step.text}`;
  return `${line}
`;
}
function approxSkeletonText(template) {
  const blocks = [SURFACE_START];
  if (template.title)
    blocks.push(`${"#".repeat(template.titleDepth)} ${template.title}`);
  blocks.push(...template.intro, SURFACE_END);
  return `${blocks.join("\n\n")}
`;
}
function approxSectionText(section) {
  return `${"#".repeat(section.depth)} ${section.title}


`;
}
function nLines(n) {
  return `${n} ${n === 1 ? "line" : "lines"}`;
}
function listIds(ids) {
  if (ids.length === 0)
    return "nothing";
  const shown = ids.slice(0, 3).join(", ");
  return ids.length > 3 ? `${shown} and ${ids.length - 3} more` : shown;
}
function buildSurface(memories, ctx) {
  const opts = { ...DEFAULT_SURFACE, ...ctx };
  const config = opts.config;
  const { template, diagnostics } = parseSurfaceTemplate(opts.template);
  const limits = surfaceLimits({ config, budget: opts.budget });
  const measure = (text3) => {
    const chars2 = estimateChars(text3);
    const counted = opts.tokenizer ? opts.tokenizer(text3) : Number.NaN;
    return { chars: chars2, tokens: Number.isFinite(counted) && counted >= 0 ? counted : chars2 / limits.charsPerToken };
  };
  const ranked = rankMemories(memories, opts);
  const tiers = new Map(tierRankedDecisions(ranked, { ...DEFAULT_TIER_DECISIONS, now: opts.now, config, signals: opts.signals }).map((t) => [t.id, t]));
  const sectionOf2 = /* @__PURE__ */ new Map();
  template.sections.forEach((s, i) => {
    for (const t of s.types)
      if (!sectionOf2.has(t))
        sectionOf2.set(t, i);
  });
  const budgetOf = (type) => {
    const b = config.surface.budgets[type];
    return typeof b === "number" && b > 0 ? Math.floor(b) : 0;
  };
  const explain = [];
  const used = /* @__PURE__ */ new Map();
  const inBudgetIds = /* @__PURE__ */ new Map();
  const inBudget = [];
  const overflow = [];
  let plan2;
  let planId = "";
  ranked.forEach((r, index) => {
    const m = r.memory;
    const sectionIndex = sectionOf2.get(m.type);
    const budget = budgetOf(m.type);
    const tier = tiers.get(m.id);
    const row = {
      id: m.id,
      type: m.type,
      status: m.status,
      section: sectionIndex === void 0 ? void 0 : template.sections[sectionIndex]?.title,
      rank: r.rank,
      parts: r.parts,
      tier: tier?.tier,
      budget,
      lines: 0,
      tokens: 0,
      included: false,
      reason: ""
    };
    explain.push(row);
    if (m.status !== "active")
      row.reason = m.status;
    else if (sectionIndex === void 0)
      row.reason = `no section for type "${m.type}" in the template`;
    else if (budget === 0)
      row.reason = `the ${m.type} budget is ${nLines(0)}`;
    else if (tier?.tier === "archive-only")
      row.reason = `archive-only decision tier (${tier.reason})`;
    else if (m.type === "plan") {
      if (plan2 === void 0) {
        plan2 = index;
        planId = m.id;
      } else
        row.reason = `only the active plan is shown: ${planId} ranks higher`;
    } else {
      row.lines = 1;
      const u = used.get(m.type) ?? 0;
      if (u + 1 <= budget) {
        used.set(m.type, u + 1);
        inBudget.push(index);
        const ids = inBudgetIds.get(m.type) ?? [];
        ids.push(m.id);
        inBudgetIds.set(m.type, ids);
        row.stage = "budget";
        row.reason = `within the ${m.type} budget: line ${u + 1} of ${budget}`;
      } else
        overflow.push(index);
    }
  });
  const rowAt = (index) => explain[index];
  const rankedAt = (index) => ranked[index];
  const makeItem = (index, stage) => {
    const { memory: m, rank, parts } = rankedAt(index);
    const tier = tiers.get(m.id)?.tier;
    const summary = cleanInline(m.summary, MAX_SUMMARY_LENGTH) || "(no summary)";
    const session = (m.source.session ?? "").replace(/[^A-Za-z0-9]/g, "").slice(0, 4).toLowerCase();
    const branch = m.source.branch && m.source.branch !== opts.currentBranch ? sanitizeLabel(m.source.branch) : "";
    const reasons = opts.staleness[m.id];
    const stale = Array.isArray(reasons) ? reasons.filter((s) => typeof s === "string" && s.trim() !== "") : [];
    return {
      id: m.id,
      type: m.type,
      section: sectionOf2.get(m.type) ?? 0,
      rank,
      parts,
      stage,
      order: -1,
      rankIndex: index,
      summary,
      detail: tier === "full" ? bodyExcerpt(m.body, summary, opts.detailChars) : void 0,
      steps: void 0,
      stepsOmitted: 0,
      tier,
      session: session ? `s${session}` : void 0,
      branch: branch || void 0,
      confidence: parts.decayed,
      lowConfidence: parts.decayed < opts.lowConfidenceBelow,
      stale,
      lines: 1,
      tokens: 0,
      chars: 0
    };
  };
  const priority = [];
  if (plan2 !== void 0) {
    const item = makeItem(plan2, "plan");
    const all = planSteps(rankedAt(plan2).memory.body).map((s) => ({ ...s, text: cleanInline(s.text, 160) }));
    const maxLines = budgetOf("plan") - 1;
    const tokenShare = Math.max(0, opts.planShare) * limits.targetTokens;
    const chosen = /* @__PURE__ */ new Set();
    let spent = 0;
    const order = [
      ...all.flatMap((s, i) => s.done ? [] : [i]),
      ...all.flatMap((s, i) => s.done ? [i] : []).reverse()
    ];
    for (const i of order) {
      if (chosen.size >= maxLines)
        break;
      const step = all[i];
      const cost = measure(`  - [${step.done ? "x" : " "}] ${step.text}
`).tokens;
      if (spent + cost > tokenShare)
        continue;
      chosen.add(i);
      spent += cost;
    }
    item.steps = all.filter((_s, i) => chosen.has(i));
    item.stepsOmitted = all.length - chosen.size;
    item.lines = 1 + chosen.size;
    used.set("plan", item.lines);
    const row = rowAt(plan2);
    row.lines = item.lines;
    row.stage = "plan";
    row.reason = "the active plan (highest-ranked plan), shown first";
    priority.push(item);
  }
  for (const index of inBudget)
    priority.push(makeItem(index, "budget"));
  let pool = 0;
  for (const [type] of sectionOf2)
    pool += Math.max(0, budgetOf(type) - (used.get(type) ?? 0));
  const poolTotal = pool;
  const usedByOf = /* @__PURE__ */ new Map();
  const lostOf = /* @__PURE__ */ new Map();
  for (const index of overflow) {
    const row = rowAt(index);
    const { type } = rankedAt(index).memory;
    let usedBy = usedByOf.get(type);
    if (usedBy === void 0) {
      usedBy = `the ${type} budget of ${nLines(row.budget)} is used by higher-ranked ${listIds(inBudgetIds.get(type) ?? [])}`;
      usedByOf.set(type, usedBy);
    }
    if (pool >= 1) {
      pool -= 1;
      row.stage = "overflow";
      row.reason = `overflow: ${usedBy}; took 1 of the ${nLines(poolTotal)} other categories left unused`;
      priority.push(makeItem(index, "overflow"));
    } else {
      let lost = lostOf.get(type);
      if (lost === void 0) {
        lost = `${usedBy}; no unused lines left in other categories (${nLines(poolTotal)} went to higher-ranked overflow)`;
        lostOf.set(type, lost);
      }
      row.reason = lost;
    }
  }
  const skeleton = measure(approxSkeletonText(template));
  let tokens = skeleton.tokens;
  let chars = skeleton.chars;
  const opened = /* @__PURE__ */ new Set();
  const items = [];
  for (const item of priority) {
    const row = rowAt(item.rankIndex);
    const own = measure(approxItemText(item));
    const section = template.sections[item.section];
    const heading = opened.has(item.section) || !section ? { tokens: 0, chars: 0 } : measure(approxSectionText(section));
    const cost = { tokens: own.tokens + heading.tokens, chars: own.chars + heading.chars };
    row.tokens = Math.ceil(cost.tokens);
    if (tokens + cost.tokens > limits.targetTokens) {
      row.reason = `token budget reached: needs ~${Math.ceil(cost.tokens)} tokens, ${Math.max(0, Math.floor(limits.targetTokens - tokens))} of ${limits.targetTokens} left after higher-priority items`;
      continue;
    }
    if (chars + cost.chars > limits.maxChars) {
      row.reason = `character limit reached: needs ~${cost.chars} characters, ${Math.max(0, limits.maxChars - chars)} of ${limits.maxChars} left after higher-priority items`;
      continue;
    }
    tokens += cost.tokens;
    chars += cost.chars;
    opened.add(item.section);
    item.tokens = cost.tokens;
    item.chars = cost.chars;
    item.order = items.length;
    row.included = true;
    items.push(item);
  }
  const excluded = explain.filter((r) => !r.included).map((r) => ({ id: r.id, reason: r.reason }));
  return { items, excluded, explain, tokens: Math.ceil(tokens), chars, limits, template, diagnostics };
}
var SURFACE_START, SURFACE_END, DEFAULT_SURFACE_TEMPLATE, DEFAULT_PARSE_SURFACE_TEMPLATE, HEADING, TYPES_COMMENT, DEFAULT_SURFACE, MARKER_WORDS, STEP_LINE, ESCAPABLE;
var init_surface = __esm({
  "dist/core/surface.js"() {
    "use strict";
    init_config();
    init_lifecycle();
    init_memory();
    init_rank();
    init_tokens();
    SURFACE_START = "<!-- CORTEX_MEMORY_START -->";
    SURFACE_END = "<!-- CORTEX_MEMORY_END -->";
    DEFAULT_SURFACE_TEMPLATE = [
      "<!--",
      "Skeleton of the Cortex briefing (`cortex surface`, the SessionStart hook).",
      'The first "#" heading is the title line; the paragraphs under it are the introduction.',
      'Each "##" heading opens a section; the "types:" comment under it lists the memory types',
      "the section holds. Sections appear in this order, except that the section holding the",
      "active plan comes first. Types listed in no section are left out of the briefing.",
      "Text in [brackets] is kept as written. Other comments, like this one, are ignored.",
      "The briefing is injected into the assistant's context: write statements of fact, not",
      "instructions.",
      "-->",
      "# Project memory",
      "",
      "Notes from earlier sessions in this repository, most relevant first. [s1a2b, feat/x]: source session and branch (if not the current one); (~0.6): lower confidence; [POSSIBLY OUTDATED]: may no longer match the code.",
      "",
      "## Plan and progress",
      "<!-- types: plan, progress -->",
      "",
      "## Architecture",
      "<!-- types: architecture -->",
      "",
      "## Decisions",
      "<!-- types: decision -->",
      "",
      "## Rejected approaches",
      "<!-- types: rejected -->",
      "",
      "## Gotchas",
      "<!-- types: gotcha -->",
      "",
      "## Patterns",
      "<!-- types: pattern -->",
      "",
      "## Preferences",
      "<!-- types: preference -->",
      "",
      "## Context",
      "<!-- types: context -->",
      "",
      "## Code",
      "<!-- types: code_description, code -->",
      ""
    ].join("\n");
    DEFAULT_PARSE_SURFACE_TEMPLATE = { file: "templates/surface.md" };
    HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
    TYPES_COMMENT = /^\s*types\s*:([\s\S]*)$/;
    DEFAULT_SURFACE = {
      ...DEFAULT_RANK,
      staleness: {},
      budget: void 0,
      template: DEFAULT_SURFACE_TEMPLATE,
      tokenizer: void 0,
      lowConfidenceBelow: 0.7,
      detailChars: 160,
      planShare: 0.5
    };
    MARKER_WORDS = /CORTEX_MEMORY_(START|END)/g;
    STEP_LINE = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX])\]\s+)?(.*\S)\s*$/;
    ESCAPABLE = /[\\`*_[<&]/g;
  }
});

// dist/core/surface-render.js
import remarkStringify2 from "remark-stringify";
import { unified as unified2 } from "unified";
function introPhrasing(value2) {
  const out = [];
  let last = 0;
  for (const m of value2.matchAll(/\[([^[\]\n]+)\]/g)) {
    const inner = m[1] ?? "";
    if (!SAFE_LABEL.test(inner) || inner.trim() === "")
      continue;
    if (m.index > last)
      out.push(text2(value2.slice(last, m.index)));
    out.push(label(inner));
    last = m.index + m[0].length;
  }
  if (last < value2.length)
    out.push(text2(value2.slice(last)));
  return out;
}
function itemPhrasing(item) {
  let head = item.summary;
  if (item.detail)
    head += ` \u2014 ${item.detail}`;
  if (item.stepsOmitted > 0)
    head += ` ${omittedStepsNote(item.stepsOmitted)}`;
  const out = [text2(head)];
  const provenance = provenanceLabel(item);
  if (provenance)
    out.push(text2(" "), label(provenance));
  if (item.lowConfidence)
    out.push(text2(` ${confidenceMarker(item.confidence)}`));
  if (item.stale.length > 0)
    out.push(text2(" "), label("POSSIBLY OUTDATED"), text2(` (${staleNote(item.stale)})`));
  return out;
}
function listOf(children) {
  return { type: "list", ordered: false, spread: false, children };
}
function listItem(item) {
  const children = [{ type: "paragraph", children: itemPhrasing(item) }];
  if (item.steps && item.steps.length > 0) {
    children.push(listOf(item.steps.map((step) => ({
      type: "listItem",
      spread: false,
      children: [{ type: "paragraph", children: [label(step.done ? "x" : " "), text2(` ${step.text}`)] }]
    }))));
  }
  return { type: "listItem", spread: false, children };
}
function buildSurfaceTree(template, items, options = {}) {
  const { header } = { ...DEFAULT_SURFACE_TREE, ...options };
  if (header === "empty")
    return { type: "root", children: [] };
  const level = HEADER_LEVELS.indexOf(header);
  const start = { type: "html", value: SURFACE_START };
  const end = { type: "html", value: SURFACE_END };
  const children = [start];
  if (level < HEADER_LEVELS.indexOf("bare") && template.title) {
    children.push({ type: "heading", depth: clampDepth(template.titleDepth), children: [text2(template.title)] });
  }
  if (level < HEADER_LEVELS.indexOf("no-intro")) {
    for (const paragraph of template.intro)
      children.push({ type: "paragraph", children: introPhrasing(paragraph) });
  }
  const bySection = /* @__PURE__ */ new Map();
  for (const item of items) {
    const list2 = bySection.get(item.section) ?? [];
    list2.push(item);
    bySection.set(item.section, list2);
  }
  const planSection = items.find((i) => i.stage === "plan")?.section;
  const order = [...bySection.keys()].sort((a, b) => a === planSection ? -1 : b === planSection ? 1 : a - b);
  for (const index of order) {
    const section = template.sections[index];
    const sectionItems = (bySection.get(index) ?? []).sort((a, b) => Number(b.stage === "plan") - Number(a.stage === "plan") || a.rankIndex - b.rankIndex);
    if (section)
      children.push({ type: "heading", depth: clampDepth(section.depth), children: [text2(section.title)] });
    children.push(listOf(sectionItems.map(listItem)));
  }
  children.push(end);
  return { type: "root", children };
}
function clampDepth(depth) {
  return Math.min(6, Math.max(1, Math.floor(depth) || 1));
}
function stringifySurfaceTree(tree) {
  return tree.children.length === 0 ? "" : processor.stringify(tree);
}
function renderSurface(surface2, options = {}) {
  const { tokenizer } = { ...DEFAULT_RENDER_SURFACE, ...options };
  const { maxTokens, maxChars, charsPerToken } = surface2.limits;
  const measure = (value2) => ({
    tokens: countTokens(value2, { tokenizer, charsPerToken }),
    chars: value2.length
  });
  const fits = (m) => m.tokens <= maxTokens && m.chars <= maxChars;
  let kept = [];
  let result = { text: "", tokens: 0, chars: 0 };
  let header = "empty";
  for (const level of HEADER_LEVELS) {
    const skeleton = stringifySurfaceTree(buildSurfaceTree(surface2.template, [], { header: level }));
    if (!fits(measure(skeleton)))
      continue;
    header = level;
    kept = level === "empty" ? [] : [...surface2.items].sort((a, b) => a.order - b.order);
    for (; ; ) {
      const out = stringifySurfaceTree(buildSurfaceTree(surface2.template, kept, { header: level }));
      const m = measure(out);
      if (fits(m) || kept.length === 0) {
        result = { text: out, ...m };
        break;
      }
      const overshoot = Math.max(m.chars - maxChars, (m.tokens - maxTokens) * charsPerToken, 1);
      let freed = 0;
      while (kept.length > 0 && freed < overshoot)
        freed += kept.pop().chars || 1;
    }
    break;
  }
  const keptIds = new Set(kept.map((i) => i.id));
  const reason = `dropped after rendering to fit the hard limit of ${maxTokens} tokens and ${maxChars} characters`;
  const dropped = surface2.items.filter((i) => !keptIds.has(i.id)).map((i) => ({ id: i.id, reason }));
  const droppedIds = new Set(dropped.map((d) => d.id));
  const explain = dropped.length === 0 ? surface2.explain : surface2.explain.map((row) => droppedIds.has(row.id) && row.included ? { ...row, included: false, reason } : row);
  return { ...result, items: kept, dropped, explain, header };
}
function renderSurfaceText(memories, ctx) {
  return renderSurface(buildSurface(memories, ctx), { tokenizer: ctx.tokenizer }).text;
}
var processor, HEADER_LEVELS, DEFAULT_SURFACE_TREE, DEFAULT_RENDER_SURFACE, text2, label, SAFE_LABEL;
var init_surface_render = __esm({
  "dist/core/surface-render.js"() {
    "use strict";
    init_surface();
    init_tokens();
    processor = unified2().use(remarkStringify2, { bullet: "-", listItemIndent: "one", rule: "-", emphasis: "_", strong: "*" }).freeze();
    HEADER_LEVELS = ["full", "no-intro", "bare", "empty"];
    DEFAULT_SURFACE_TREE = { header: "full" };
    DEFAULT_RENDER_SURFACE = { tokenizer: void 0 };
    text2 = (value2) => ({ type: "text", value: value2 });
    label = (value2) => ({
      type: "linkReference",
      identifier: value2.toLowerCase(),
      label: value2,
      referenceType: "shortcut",
      children: [text2(value2)]
    });
    SAFE_LABEL = /^[A-Za-z0-9 ./@:,+~()-]+$/;
  }
});

// dist/core/surface-target.js
function count(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length))
    n++;
  return n;
}
function spliceSurface(existing, briefing) {
  const section = (briefing === "" ? `${SURFACE_START}
${SURFACE_END}
` : briefing).replace(/\r\n?/g, "\n");
  if (existing === void 0 || existing === "")
    return { ok: true, text: section };
  const crlf = existing.includes("\r\n");
  const eol = (text3) => crlf ? text3.replace(/\n/g, "\r\n") : text3;
  const starts = count(existing, SURFACE_START);
  const ends = count(existing, SURFACE_END);
  if (starts === 0 && ends === 0) {
    const sep3 = existing.endsWith("\n\n") || existing.endsWith("\r\n\r\n") ? "" : existing.endsWith("\n") ? eol("\n") : eol("\n\n");
    return { ok: true, text: `${existing}${sep3}${eol(section)}` };
  }
  if (starts !== 1 || ends !== 1) {
    return {
      ok: false,
      reason: `has ${starts} ${SURFACE_START} and ${ends} ${SURFACE_END} markers; exactly one pair is needed`
    };
  }
  const start = existing.indexOf(SURFACE_START);
  const endMarker = existing.indexOf(SURFACE_END);
  if (endMarker < start)
    return { ok: false, reason: `has ${SURFACE_END} before ${SURFACE_START}` };
  let end = endMarker + SURFACE_END.length;
  if (existing.startsWith("\r\n", end))
    end += 2;
  else if (existing.startsWith("\n", end))
    end += 1;
  return { ok: true, text: `${existing.slice(0, start)}${eol(section)}${existing.slice(end)}` };
}
var init_surface_target = __esm({
  "dist/core/surface-target.js"() {
    "use strict";
    init_surface();
  }
});

// dist/fast/surface-cache.js
import { mkdirSync as mkdirSync3, readFileSync as readFileSync14, renameSync as renameSync2, rmSync as rmSync7, statSync as statSync10, writeFileSync as writeFileSync2 } from "node:fs";
import { homedir as homedir2 } from "node:os";
import { dirname as dirname4, isAbsolute as isAbsolute2, join as join18, resolve as resolve3 } from "node:path";
import { fileURLToPath } from "node:url";
function readBudgetEnv(env) {
  const raw = env[SURFACE_ENV.budget];
  if (raw === void 0 || raw.trim() === "")
    return {};
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < BUDGET_RANGE[0] || n > BUDGET_RANGE[1]) {
    return { error: `${SURFACE_ENV.budget} is "${raw}"; allowed: an integer from ${BUDGET_RANGE[0]} to ${BUDGET_RANGE[1]}` };
  }
  return { budget: n };
}
function readNowEnv(env) {
  const raw = env[SURFACE_ENV.now];
  if (raw === void 0 || raw.trim() === "")
    return {};
  const ms = Date.parse(raw.trim());
  if (Number.isNaN(ms))
    return { error: `${SURFACE_ENV.now} is "${raw}"; allowed: an ISO-8601 date such as 2026-12-01T09:00:00Z` };
  return { now: new Date(ms) };
}
function isDir2(path3) {
  return statSync10(path3, { throwIfNoEntry: false })?.isDirectory() === true;
}
function exists(path3) {
  return statSync10(path3, { throwIfNoEntry: false }) !== void 0;
}
function globalHome(env) {
  return resolve3(env.CORTEX_HOME || join18(homedir2(), ".cortex"));
}
function findProjectRootFast(start, env) {
  const globalDir = globalHome(env);
  let dir = resolve3(start);
  for (; ; ) {
    const candidate = join18(dir, ".cortex");
    if (candidate !== globalDir && isDir2(candidate))
      return dir;
    if (exists(join18(dir, ".git")))
      return void 0;
    const parent = dirname4(dir);
    if (parent === dir)
      return void 0;
    dir = parent;
  }
}
function findGitDir(dir) {
  let current = resolve3(dir);
  for (; ; ) {
    const dotGit = join18(current, ".git");
    const st = statSync10(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory())
      return dotGit;
    if (st?.isFile()) {
      try {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync14(dotGit, "utf8"));
        if (!m?.[1])
          return void 0;
        return isAbsolute2(m[1]) ? m[1] : resolve3(current, m[1]);
      } catch {
        return void 0;
      }
    }
    const parent = dirname4(current);
    if (parent === current)
      return void 0;
    current = parent;
  }
}
function readGitHead(dir) {
  const gitDir = findGitDir(dir);
  if (!gitDir)
    return void 0;
  let text3;
  try {
    text3 = readFileSync14(join18(gitDir, "HEAD"), "utf8").trim();
  } catch {
    return void 0;
  }
  const ref = /^ref:\s*(\S+)$/.exec(text3);
  if (ref?.[1])
    return { branch: ref[1].replace(/^refs\/heads\//, ""), detached: false };
  if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(text3))
    return { commit: text3, detached: true };
  return void 0;
}
function signature(path3, coarse) {
  let st;
  try {
    st = statSync10(path3, { bigint: true, throwIfNoEntry: false });
  } catch {
    return "?";
  }
  if (!st)
    return "-";
  if (st.mtimeNs % 1000000000n === 0n && Date.now() - Number(st.mtimeMs) < 2e3)
    coarse.recent = true;
  return `${st.mtimeNs}.${st.size}.${st.ino}`;
}
function surfaceCacheKey(options) {
  const { root: start, variant, includeGlobal } = { ...DEFAULT_SURFACE_CACHE, ...options };
  const env = options.env ?? process.env;
  const root = findProjectRootFast(start, env);
  if (!root)
    return void 0;
  let budget = options.budget;
  if (budget === void 0) {
    const fromEnv = readBudgetEnv(env);
    if (fromEnv.error)
      return void 0;
    budget = fromEnv.budget;
  }
  if (budget !== void 0 && !Number.isFinite(budget))
    return void 0;
  let now = options.now;
  if (now === void 0) {
    const fromEnv = readNowEnv(env);
    if (fromEnv.error)
      return void 0;
    now = fromEnv.now ?? /* @__PURE__ */ new Date();
  }
  if (Number.isNaN(now.getTime()))
    return void 0;
  const head = readGitHead(root);
  const coarse = { recent: false };
  const cortex = join18(root, ".cortex");
  const cache2 = join18(root, ".memory");
  const parts = [
    `v${SURFACE_CACHE_VERSION}`,
    variant,
    budget === void 0 ? "config" : String(budget),
    now.toISOString().slice(0, 10),
    head?.branch !== void 0 ? `branch:${head.branch}` : head?.commit !== void 0 ? `detached:${head.commit}` : "no-git",
    `memories=${signature(join18(cortex, "memories"), coarse)}`,
    `edges=${signature(join18(cortex, "edges"), coarse)}`,
    `config=${signature(join18(cortex, "config.yaml"), coarse)}`,
    `index=${signature(join18(cache2, "index.v8"), coarse)}`,
    `signals=${signature(join18(cache2, "signals.json"), coarse)}`
  ];
  if (includeGlobal) {
    const home = globalHome(env);
    parts.push(`global=${home}`, `global.memories=${signature(join18(home, "memories"), coarse)}`, `global.edges=${signature(join18(home, "edges"), coarse)}`, `global.index=${signature(join18(home, ".memory", "index.v8"), coarse)}`, `global.signals=${signature(join18(home, ".memory", "signals.json"), coarse)}`);
  } else
    parts.push("global=off");
  for (const file2 of PACKAGE_FILES) {
    let path3;
    try {
      path3 = fileURLToPath(new URL(file2, import.meta.url));
    } catch {
      continue;
    }
    parts.push(`code=${signature(path3, { recent: false })}`);
  }
  const file = join18(cache2, "surface-cache", `${variant}-${budget === void 0 ? "config" : budget}.json`);
  return { root, file, key: JSON.stringify(parts), racy: coarse.recent };
}
function readCachedSurface(options) {
  return readCachedSurfaceEntry(options)?.text;
}
function readCachedSurfaceEntry(options) {
  try {
    const key = surfaceCacheKey(options);
    if (!key)
      return void 0;
    const entry = JSON.parse(readFileSync14(key.file, "utf8"));
    if (entry?.version !== SURFACE_CACHE_VERSION || entry.key !== key.key || typeof entry.text !== "string")
      return void 0;
    const ids = Array.isArray(entry.ids) ? entry.ids.filter((id) => typeof id === "string") : void 0;
    return { text: entry.text, ids };
  } catch {
    return void 0;
  }
}
function writeSurfaceCache(key, rendered) {
  if (key.racy)
    return false;
  const entry = {
    version: SURFACE_CACHE_VERSION,
    key: key.key,
    text: rendered.text,
    tokens: rendered.tokens,
    chars: rendered.chars,
    ids: rendered.items?.map((i) => i.id),
    builtAt: (/* @__PURE__ */ new Date()).toISOString()
  };
  const tmp = join18(dirname4(key.file), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    mkdirSync3(dirname4(key.file), { recursive: true });
    writeFileSync2(tmp, `${JSON.stringify(entry)}
`);
    renameSync2(tmp, key.file);
    return true;
  } catch {
    try {
      rmSync7(tmp, { force: true });
    } catch {
    }
    return false;
  }
}
var SURFACE_CACHE_VERSION, SURFACE_ENV, BUDGET_RANGE, DEFAULT_SURFACE_CACHE, PACKAGE_FILES;
var init_surface_cache = __esm({
  "dist/fast/surface-cache.js"() {
    "use strict";
    SURFACE_CACHE_VERSION = 1;
    SURFACE_ENV = {
      /** Token budget of the briefing (target and hard maximum), like `--budget`. */
      budget: "CORTEX_SURFACE_BUDGET",
      /** Comma-separated target files for `cortex surface --write` (replaces `surface.targets`). */
      targets: "CORTEX_SURFACE_TARGETS",
      /** The clock, as an ISO-8601 date: reproducible runs and tests. */
      now: "CORTEX_NOW"
    };
    BUDGET_RANGE = [10, 2500];
    DEFAULT_SURFACE_CACHE = {
      variant: "full",
      includeGlobal: true
    };
    PACKAGE_FILES = ["../../templates/surface.md", "../../package.json"];
  }
});

// dist/templates.js
import { readFileSync as readFileSync15 } from "node:fs";
function readTemplate(name) {
  let text3 = cache.get(name);
  if (text3 === void 0) {
    text3 = readFileSync15(new URL(`../templates/${name}`, import.meta.url), "utf8");
    cache.set(name, text3);
  }
  return text3;
}
function templatePath(name) {
  return new URL(`../templates/${name}`, import.meta.url).pathname;
}
function readHookTemplate(name) {
  const key = `hooks/${name}`;
  let text3 = cache.get(key);
  if (text3 === void 0) {
    text3 = readFileSync15(new URL(`../hooks/${name}`, import.meta.url), "utf8");
    cache.set(key, text3);
  }
  return text3;
}
var cache;
var init_templates = __esm({
  "dist/templates.js"() {
    "use strict";
    cache = /* @__PURE__ */ new Map();
  }
});

// dist/api/context.js
import { randomBytes as nodeRandomBytes } from "node:crypto";
import { existsSync as existsSync9, readFileSync as readFileSync16 } from "node:fs";
import { resolve as resolve4 } from "node:path";
function loadConfig(paths) {
  const file = ".cortex/config.yaml";
  if (!existsSync9(paths.configFile))
    return resolveConfig(void 0, file);
  let raw;
  try {
    raw = loadYaml().parse(readFileSync16(paths.configFile, "utf8"));
  } catch (err) {
    const result = resolveConfig(void 0, file);
    const e = err;
    result.diagnostics.push({
      file,
      line: e.linePos?.[0]?.line,
      column: e.linePos?.[0]?.col,
      reason: `invalid YAML: ${(e.message ?? String(err)).split("\n")[0]}`,
      ruleId: "config-yaml",
      severity: "error",
      hint: "Fix the YAML syntax; until then the defaults are used."
    });
    return result;
  }
  return resolveConfig(raw, file);
}
function openContext(options = {}) {
  const env = options.env ?? process.env;
  const start = resolve4(options.dir ?? process.cwd());
  const root = findProjectRoot(start, env);
  if (!root)
    throw new NotInitializedError(start);
  return contextFor(root, options);
}
function clockOf(env) {
  const { now, error } = readNowEnv(env);
  if (error)
    throw new UsageError(`${error}.`, { hint: `Unset ${SURFACE_ENV.now} to use the system clock.` });
  return now ? () => new Date(now.getTime()) : () => /* @__PURE__ */ new Date();
}
function contextFor(root, options = {}) {
  const env = options.env ?? process.env;
  const paths = projectPaths(root);
  const loaded2 = loadConfig(paths);
  const config = options.configOverrides ? options.configOverrides(loaded2.config) : loaded2.config;
  return {
    root: paths.root,
    paths,
    global: globalPaths(env),
    includeGlobal: options.includeGlobal ?? true,
    config,
    configDiagnostics: loaded2.diagnostics,
    env,
    now: options.now ?? clockOf(env),
    randomBytes: options.randomBytes ?? ((n) => nodeRandomBytes(n)),
    embedder: options.embedder
  };
}
var init_context = __esm({
  "dist/api/context.js"() {
    "use strict";
    init_lazy();
    init_errors();
    init_surface_cache();
    init_config();
    init_paths();
  }
});

// dist/api/providers.js
import { existsSync as existsSync10 } from "node:fs";
import { isAbsolute as isAbsolute3, resolve as resolve5 } from "node:path";
function setCentralityProvider(provider) {
  centralityProvider = provider;
}
function addStalenessProvider(provider) {
  if (!stalenessProviders.includes(provider))
    stalenessProviders.push(provider);
}
function resetStalenessProviders() {
  stalenessProviders = [];
}
function centralityOf(ctx, memories) {
  if (!centralityProvider)
    return {};
  try {
    return centralityProvider(ctx, memories);
  } catch {
    return {};
  }
}
function missingFiles(ctx, memories) {
  const out = /* @__PURE__ */ Object.create(null);
  for (const m of memories) {
    if (m.status !== "active" || m.scope !== "project" || !m.source.files || m.source.files.length === 0)
      continue;
    const reasons = [];
    for (const file of m.source.files) {
      if (typeof file !== "string" || file.trim() === "")
        continue;
      const path3 = isAbsolute3(file) ? file : resolve5(ctx.root, file);
      if (!existsSync10(path3))
        reasons.push(`${file} no longer exists`);
    }
    if (reasons.length > 0)
      out[m.id] = reasons;
  }
  return out;
}
function stalenessOf(ctx, memories) {
  const out = missingFiles(ctx, memories);
  for (const provider of stalenessProviders) {
    let extra;
    try {
      extra = provider(ctx, memories);
    } catch {
      continue;
    }
    for (const [id, reasons] of Object.entries(extra)) {
      if (!Array.isArray(reasons) || reasons.length === 0)
        continue;
      out[id] = [...out[id] ?? [], ...reasons.filter((r) => typeof r === "string" && !(out[id] ?? []).includes(r))];
    }
  }
  return out;
}
var centralityProvider, stalenessProviders;
var init_providers = __esm({
  "dist/api/providers.js"() {
    "use strict";
    init_graph_view();
    centralityProvider = centralityFor;
    stalenessProviders = [];
  }
});

// dist/api/surface.js
var surface_exports = {};
__export(surface_exports, {
  DEFAULT_SURFACE_INPUT: () => DEFAULT_SURFACE_INPUT,
  budgetFor: () => budgetFor,
  loadMemories: () => loadMemories,
  refreshSurfaceCache: () => refreshSurfaceCache,
  surface: () => surface
});
import { existsSync as existsSync11 } from "node:fs";
import { isAbsolute as isAbsolute4, relative as relative3, resolve as resolve6 } from "node:path";
function loadMemories(ctx, scopes = ["project", "global"]) {
  const memories = [];
  const diagnostics = [];
  const tiers = [];
  if (scopes.includes("project"))
    tiers.push({ paths: ctx.paths, base: ctx.root });
  if (scopes.includes("global") && ctx.includeGlobal && existsSync11(ctx.global.memoriesDir)) {
    tiers.push({ paths: ctx.global, base: ctx.global.cortexDir });
  }
  for (const tier of tiers) {
    const read2 = readAllMemories(tier.paths, tier.base);
    for (const m of read2.memories)
      memories.push(m);
    diagnostics.push(...read2.diagnostics);
  }
  return { memories, diagnostics };
}
function checkBudget(budget) {
  if (budget === void 0)
    return;
  if (!Number.isInteger(budget) || budget < BUDGET_RANGE[0] || budget > BUDGET_RANGE[1]) {
    throw new UsageError(`The surface budget must be an integer from ${BUDGET_RANGE[0]} to ${BUDGET_RANGE[1]} tokens, got ${budget}.`);
  }
}
function budgetFor(ctx, variant, budget) {
  if (variant === "full")
    return budget;
  return Math.min(budget ?? Number.POSITIVE_INFINITY, ctx.config.surface.compactTokens);
}
function gather(ctx, explainAll) {
  const now = ctx.now();
  const loaded2 = loadMemories(ctx);
  return {
    now,
    branch: readGitHead(ctx.root)?.branch,
    loaded: loaded2,
    candidates: explainAll ? loaded2.memories : loaded2.memories.filter((m) => m.status === "active"),
    signals: loadSignals(ctx),
    centrality: centralityOf(ctx, loaded2.memories),
    staleness: stalenessOf(ctx, loaded2.memories),
    template: readTemplate("surface.md")
  };
}
async function addGitStaleness(ctx, inputs, ids) {
  const checked = inputs.candidates.filter((m) => ids.has(m.id) && m.scope === "project" && m.source.commit !== void 0);
  if (checked.length === 0)
    return false;
  let found;
  try {
    found = await (await Promise.resolve().then(() => (init_staleness(), staleness_exports))).computeStaleness(ctx, checked);
  } catch {
    return false;
  }
  let changed = false;
  for (const [id, reasons] of Object.entries(found)) {
    const known = inputs.staleness[id] ?? [];
    const added = reasons.filter((r) => !known.includes(r));
    if (added.length === 0)
      continue;
    inputs.staleness[id] = [...known, ...added];
    changed = true;
  }
  return changed;
}
function build(ctx, inputs, variant, budget) {
  const s = ctx.config.surface;
  const selection = buildSurface(inputs.candidates, {
    now: inputs.now,
    config: ctx.config,
    signals: inputs.signals,
    centrality: inputs.centrality,
    currentBranch: inputs.branch,
    staleness: inputs.staleness,
    budget: budgetFor(ctx, variant, budget),
    template: inputs.template,
    lowConfidenceBelow: s.lowConfidenceBelow,
    detailChars: s.detailChars,
    planShare: s.planShare
  });
  return { rendered: renderSurface(selection), selection };
}
function cacheable(ctx) {
  try {
    return configFingerprint(loadConfig(ctx.paths).config) === configFingerprint(ctx.config);
  } catch {
    return false;
  }
}
function cacheKeyFor(ctx, variant, budget, now) {
  return surfaceCacheKey({ root: ctx.root, budget, variant, env: ctx.env, now, includeGlobal: ctx.includeGlobal });
}
async function surface(ctx, input = {}) {
  const { variant, write, cache: cache2, explainAll } = { ...DEFAULT_SURFACE_INPUT, ...input };
  if (variant !== "full" && variant !== "compact")
    throw new UsageError(`Unknown surface variant "${String(variant)}".`, { hint: "Use full or compact." });
  checkBudget(input.budget);
  const targets = write === true ? ctx.config.surface.targets : write === false ? [] : write;
  const planned = planTargets(ctx, targets);
  const now = ctx.now();
  const useCache = cache2 && cacheable(ctx);
  const variants = input.budget === void 0 ? [variant, variant === "full" ? "compact" : "full"] : [variant];
  const keys = useCache ? variants.map((v) => cacheKeyFor(ctx, v, input.budget, now)) : [];
  const inputs = gather({ ...ctx, now: () => now }, explainAll);
  let { rendered, selection } = build(ctx, inputs, variant, input.budget);
  if (await addGitStaleness(ctx, inputs, new Set(selection.items.map((i) => i.id)))) {
    ({ rendered, selection } = build(ctx, inputs, variant, input.budget));
  }
  let cached = false;
  if (useCache) {
    cached = keys[0] ? writeSurfaceCache(keys[0], rendered) : false;
    if (keys[1])
      writeSurfaceCache(keys[1], build(ctx, inputs, variants[1], input.budget).rendered);
  }
  const written = writeTargets(planned, rendered.text);
  const scopeOf = /* @__PURE__ */ new Map();
  for (const m of inputs.loaded.memories)
    if (!scopeOf.has(m.id))
      scopeOf.set(m.id, m.scope);
  return {
    text: rendered.text,
    tokens: rendered.tokens,
    chars: rendered.chars,
    variant,
    limits: selection.limits,
    now: now.toISOString(),
    branch: inputs.branch,
    memories: inputs.loaded.memories.length,
    items: rendered.items.map((i) => ({
      id: i.id,
      type: i.type,
      scope: scopeOf.get(i.id) ?? "project",
      section: selection.template.sections[i.section]?.title ?? "",
      stage: i.stage,
      rank: i.rank,
      tier: i.tier,
      tokens: Math.ceil(i.tokens),
      stale: i.stale
    })),
    explain: rendered.explain,
    written,
    cached,
    diagnostics: [...ctx.configDiagnostics, ...inputs.loaded.diagnostics, ...selection.diagnostics]
  };
}
function planTargets(ctx, targets) {
  const planned = [];
  for (const target of targets) {
    const path3 = resolve6(ctx.root, target);
    const rel = relative3(ctx.root, path3);
    if (target.trim() === "" || rel === "" || rel.startsWith("..") || isAbsolute4(rel)) {
      throw new UsageError(`The surface target "${target}" is outside the repository.`, {
        hint: "Targets are files relative to the repository root, e.g. AGENTS.md or .claude/cortex-memory.local.md."
      });
    }
    if (planned.some((p) => p.path === path3))
      continue;
    const file = rel.split("\\").join("/");
    let existing;
    try {
      existing = readFileIfExists(path3)?.toString("utf8");
    } catch (err) {
      throw new UsageError(`Cannot use ${file} as a surface target: ${err.code ?? err.message}.`, {
        hint: "Targets are files relative to the repository root, e.g. AGENTS.md.",
        cause: err
      });
    }
    planned.push({ file, path: path3, existing });
  }
  return planned;
}
function writeTargets(planned, text3) {
  const next = planned.map((t) => ({ target: t, result: spliceSurface(t.existing, text3) }));
  const bad = next.find((n) => !n.result.ok);
  if (bad && !bad.result.ok) {
    throw new ParseError(`${bad.target.file} ${bad.result.reason}; no target was written.`, {
      hint: `Leave exactly one <!-- CORTEX_MEMORY_START --> \u2026 <!-- CORTEX_MEMORY_END --> pair in ${bad.target.file} (or none, to append the briefing).`
    });
  }
  return next.map(({ target, result }) => ({
    file: target.file,
    action: writeIfChanged(target.path, result.text)
  }));
}
async function refreshSurfaceCache(ctx) {
  return (await surface(ctx, { cache: true })).cached;
}
var DEFAULT_SURFACE_INPUT;
var init_surface2 = __esm({
  "dist/api/surface.js"() {
    "use strict";
    init_config();
    init_surface_render();
    init_surface();
    init_surface_target();
    init_errors();
    init_surface_cache();
    init_atomic();
    init_memory_store();
    init_templates();
    init_context();
    init_providers();
    init_signals2();
    DEFAULT_SURFACE_INPUT = {
      variant: "full",
      write: false,
      cache: true,
      explainAll: false
    };
  }
});

// dist/api/lifecycle.js
var lifecycle_exports = {};
__export(lifecycle_exports, {
  DEFAULT_LIFECYCLE_INPUT: () => DEFAULT_LIFECYCLE_INPUT,
  lifecycle: () => lifecycle
});
import { existsSync as existsSync12 } from "node:fs";
import { join as join19 } from "node:path";
function tierOf(ctx, scope) {
  return scope === "project" ? { paths: ctx.paths, base: ctx.root } : { paths: ctx.global, base: ctx.global.cortexDir };
}
function plan(ctx, scope, now) {
  const loaded2 = loadMemories(ctx, [scope]);
  const memories = new Map(loaded2.memories.map((m) => [m.id, m]));
  const transitions = planLifecycle(loaded2.memories, {
    now,
    config: ctx.config,
    signals: loadSignals(ctx, [scope]),
    centrality: centralityOf(ctx, loaded2.memories)
  });
  const { paths, base } = tierOf(ctx, scope);
  const changes = transitions.map((t) => ({
    ...t,
    scope,
    file: displayPath(memoryPath(paths, t.id), base),
    change: t.to === "pruned" ? "deleted" : "modified",
    summary: memories.get(t.id)?.summary ?? ""
  }));
  return { changes, memories, diagnostics: loaded2.diagnostics };
}
async function lifecycle(ctx, input = {}) {
  const { dryRun, scope } = { ...DEFAULT_LIFECYCLE_INPUT, ...input };
  if (scope !== "project" && scope !== "global" && scope !== "all") {
    throw new UsageError(`Unknown scope "${String(scope)}".`, { hint: "Use project, global or all." });
  }
  const now = ctx.now();
  const scopes = scope === "all" ? ["project", "global"] : [scope];
  const changes = [];
  const diagnostics = [...ctx.configDiagnostics];
  for (const s of scopes) {
    if (s === "global" && (!ctx.includeGlobal || !existsSync12(ctx.global.memoriesDir)))
      continue;
    const { paths } = tierOf(ctx, s);
    if (dryRun) {
      const planned = plan(ctx, s, now);
      changes.push(...planned.changes);
      diagnostics.push(...planned.diagnostics);
      continue;
    }
    await withLock(join19(paths.cacheDir, "locks", "write.lock"), () => {
      const planned = plan(ctx, s, now);
      diagnostics.push(...planned.diagnostics);
      for (const change of planned.changes) {
        const memory = planned.memories.get(change.id);
        if (!memory)
          continue;
        if (change.to === "pruned")
          deleteMemory(paths, change.id);
        else
          writeMemory(paths, { ...memory, status: change.to, updated: change.at });
        changes.push(change);
      }
      const pruned = planned.changes.filter((c) => c.to === "pruned").map((c) => c.id);
      if (pruned.length > 0) {
        try {
          updateSignals(paths, (signals) => {
            let changed = false;
            for (const id of pruned)
              if (id in signals)
                changed = delete signals[id];
            return changed;
          });
        } catch {
        }
      }
    });
  }
  return { changes, applied: !dryRun, now: now.toISOString(), diagnostics };
}
var DEFAULT_LIFECYCLE_INPUT;
var init_lifecycle2 = __esm({
  "dist/api/lifecycle.js"() {
    "use strict";
    init_lifecycle();
    init_errors();
    init_lock();
    init_memory_store();
    init_paths();
    init_signals();
    init_providers();
    init_signals2();
    init_surface2();
    DEFAULT_LIFECYCLE_INPUT = { dryRun: false, scope: "project" };
  }
});

// dist/core/extract.js
function extractMemories(events, options) {
  const opts = { ...DEFAULT_EXTRACT, ...options };
  const state = cloneState(opts.state);
  const candidates = [];
  const session = opts.sessionId;
  const toolIds = /* @__PURE__ */ new Set();
  let lastTextByMessage = { id: void 0, texts: [] };
  const seenTexts = /* @__PURE__ */ new Set();
  let turn = state.proposals;
  state.proposals = [];
  const emitText = (text3, branch2, sidechain) => {
    for (const c of selfReports(text3, { session, branch: branch2 }))
      candidates.push(c);
    for (const c of keywordCandidates(text3, { session, branch: branch2, sidechain })) {
      candidates.push(c);
      if (!sidechain && (c.type === "decision" || c.type === "rejected"))
        turn.push(c);
    }
  };
  for (const event of events) {
    if (event.gitBranch !== void 0) {
      state.branch = event.gitBranch;
      if (!state.branches.includes(event.gitBranch))
        state.branches.push(event.gitBranch);
    }
    if (event.sessionId !== void 0 && !state.sessions.includes(event.sessionId))
      state.sessions.push(event.sessionId);
    if (event.timestamp !== void 0) {
      if (state.firstTimestamp === void 0 || event.timestamp < state.firstTimestamp)
        state.firstTimestamp = event.timestamp;
      if (state.lastTimestamp === void 0 || event.timestamp > state.lastTimestamp)
        state.lastTimestamp = event.timestamp;
    }
    if (state.root === void 0 && event.cwd !== void 0)
      state.root = event.cwd;
    const branch2 = opts.branch ?? event.gitBranch;
    switch (event.kind) {
      case "prompt": {
        if (event.isSidechain)
          break;
        state.prompts++;
        if (isAcceptance(event.text)) {
          for (const c of turn) {
            const boosted = { ...c, confidence: round(clamp(c.confidence + ACCEPTANCE_BOOST, 0, 0.95)) };
            if (boosted.confidence !== c.confidence)
              candidates.push(boosted);
          }
        }
        turn = [];
        for (const c of rememberRequests(event.text, { session, branch: branch2 }))
          candidates.push(c);
        break;
      }
      case "meta":
        if (event.subtype === "memory-input" && event.text !== void 0 && event.text.trim() !== "" && !event.isSidechain) {
          candidates.push(userPreference(event.text.replace(/^#\s*/, ""), { session, branch: branch2 }));
        }
        break;
      case "text": {
        if (event.synthetic)
          break;
        const key = normalizeSpace(event.text);
        if (seenTexts.has(key) && key.length > 40)
          break;
        seenTexts.add(key);
        if (lastTextByMessage.id !== event.messageId || event.messageId === void 0)
          lastTextByMessage = { id: event.messageId, texts: [] };
        lastTextByMessage.texts.push(event.text);
        emitText(event.text, branch2, event.isSidechain);
        break;
      }
      case "tool-use":
        if (toolIds.has(event.id) || event.id !== "" && state.pendingTools[event.id] !== void 0)
          break;
        toolIds.add(event.id);
        if (!event.isSidechain)
          turn = [];
        onToolUse(event, state, opts.branch);
        break;
      case "tool-result":
        onToolResult(event, state);
        break;
      default:
        break;
    }
  }
  const last = opts.lastAssistantMessage?.trim();
  if (last !== void 0 && last !== "") {
    const norm = normalizeSpace(last);
    const caughtUp = seenTexts.has(norm) || normalizeSpace(lastTextByMessage.texts.join("\n\n")) === norm;
    if (!caughtUp)
      emitText(last, opts.branch ?? state.branch, false);
  }
  state.proposals = turn;
  const branch = opts.branch ?? state.branch;
  const structural = structuralCandidates(state, { session, branch, now: opts.now });
  const all = dedupe([...structural, ...candidates]);
  const memories = [];
  const review = [];
  for (const c of all) {
    if (c.layer !== "keyword" || c.confidence >= opts.threshold)
      memories.push(c);
    else if (c.confidence >= opts.reviewFloor)
      review.push(c);
  }
  return { memories, review, state };
}
function emptyState() {
  return {
    version: 1,
    edited: [],
    read: [],
    commands: 0,
    recentCommands: [],
    commits: [],
    prompts: 0,
    branches: [],
    sessions: [],
    pendingTools: {},
    proposals: []
  };
}
function cloneState(state) {
  if (state === void 0 || state.version !== 1)
    return emptyState();
  return JSON.parse(JSON.stringify(state));
}
function onToolUse(event, state, branchOption) {
  const input = event.input;
  if (event.name === "TodoWrite") {
    if (event.isSidechain)
      return;
    const items = parseTodos(input.todos);
    if (items !== void 0)
      state.todos = { items, branch: event.gitBranch ?? branchOption };
    return;
  }
  const pending = { name: event.name };
  if (EDIT_TOOLS.has(event.name) || READ_TOOLS.has(event.name)) {
    const path3 = str2(input.file_path) ?? str2(input.notebook_path) ?? str2(input.path);
    if (path3 === void 0)
      return;
    pending.file = relativePath(path3, state.root);
  } else if (event.name === "Bash") {
    const command2 = str2(input.command);
    if (command2 === void 0)
      return;
    pending.command = command2;
  } else {
    return;
  }
  if (event.id === "")
    return;
  state.pendingTools[event.id] = pending;
  const ids = Object.keys(state.pendingTools);
  if (ids.length > MAX_PENDING_TOOLS)
    delete state.pendingTools[ids[0] ?? ""];
}
function onToolResult(event, state) {
  const pending = state.pendingTools[event.toolUseId];
  if (pending === void 0)
    return;
  delete state.pendingTools[event.toolUseId];
  if (event.isError && NOT_RUN.test(event.content))
    return;
  if (pending.file !== void 0) {
    if (event.isError)
      return;
    const list2 = EDIT_TOOLS.has(pending.name) ? state.edited : state.read;
    if (!list2.includes(pending.file))
      list2.push(pending.file);
    return;
  }
  if (pending.command === void 0)
    return;
  state.commands++;
  const shown = shortCommand(pending.command);
  const at = state.recentCommands.indexOf(shown);
  if (at !== -1)
    state.recentCommands.splice(at, 1);
  state.recentCommands.push(shown);
  if (state.recentCommands.length > RECENT_COMMANDS)
    state.recentCommands.shift();
  const commit2 = commitOf(pending.command, event);
  if (commit2 !== void 0)
    state.commits.push(commit2);
}
function commitOf(command2, result) {
  if (!GIT_COMMIT.test(command2))
    return void 0;
  const stdout = isObject(result.structured) && typeof result.structured.stdout === "string" ? result.structured.stdout : result.content;
  const line = COMMIT_LINE.exec(stdout);
  if (line)
    return { hash: line[2], subject: (line[3] ?? "").trim() };
  if (result.isError || /nothing to commit|no changes added to commit/i.test(stdout))
    return void 0;
  const message = commitMessage(command2);
  return message === void 0 ? void 0 : { subject: message };
}
function commitMessage(command2) {
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\s*\1\b/.exec(command2);
  const quoted = /(?:\s-[a-zA-Z]*m|\s--message)(?:\s+|=)(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(command2);
  const text3 = quoted?.[1] !== void 0 && !quoted[1].startsWith("$(") ? quoted[1] : quoted?.[2] ?? heredoc?.[2];
  const subject = text3?.replace(/\\"/g, '"').split("\n").map((l) => l.trim()).find((l) => l !== "");
  return subject === void 0 ? void 0 : subject.slice(0, 150);
}
function parseTodos(value2) {
  if (!Array.isArray(value2))
    return void 0;
  const items = [];
  for (const raw of value2) {
    if (!isObject(raw))
      continue;
    const content = str2(raw.content) ?? str2(raw.subject);
    if (content === void 0 || content.trim() === "")
      continue;
    const status2 = raw.status === "completed" || raw.status === "in_progress" ? raw.status : "pending";
    items.push({ content: oneLine3(content), status: status2 });
  }
  return items;
}
function checklistLine(t) {
  const box = t.status === "completed" ? "x" : " ";
  return `- [${box}] ${t.content}${t.status === "in_progress" ? " (in progress)" : ""}`;
}
function structuralCandidates(state, ctx) {
  const out = [];
  const todos = state.todos;
  if (todos !== void 0 && todos.items.length > 0) {
    const branch = ctx.branch ?? todos.branch;
    const name = branch ?? "no-branch";
    const done = todos.items.filter((t) => t.status === "completed").length;
    const current = todos.items.find((t) => t.status === "in_progress");
    const next = todos.items.find((t) => t.status === "pending");
    const tail = current ? current.content : next ? `next: ${next.content}` : "all done";
    out.push({
      type: "plan",
      summary: truncate(`${branch === void 0 ? "Plan" : `Plan on ${branch}`}: ${done}/${todos.items.length} done \u2014 ${tail}`),
      body: todos.items.map(checklistLine).join("\n"),
      confidence: 0.9,
      tags: normalizeTags(["plan", ...branch === void 0 ? [] : [branch]]),
      topic: `plan/${name}`,
      layer: "structural",
      session: ctx.session,
      ...branch === void 0 ? {} : { branch }
    });
  }
  const edited = state.edited.length;
  const commits = state.commits.length;
  if (edited + commits + state.commands + state.read.length > 0) {
    const parts = [];
    if (edited > 0) {
      const names = state.edited.slice(0, 3).map(basename3).join(", ");
      parts.push(`edited ${plural(edited, "file")} (${names}${edited > 3 ? ` +${edited - 3}` : ""})`);
    } else if (state.read.length > 0)
      parts.push(`read ${plural(state.read.length, "file")}`);
    if (commits > 0)
      parts.push(plural(commits, "commit"));
    if (state.commands > 0)
      parts.push(`ran ${plural(state.commands, "command")}`);
    const where = ctx.branch === void 0 ? "Session" : `Session on ${ctx.branch}`;
    const lastCommit = state.commits[commits - 1];
    const summary = `${where}: ${parts.join(", ")}${lastCommit ? `; last commit: ${lastCommit.subject}` : ""}`;
    const lines = [];
    const others = state.sessions.filter((s) => s !== ctx.session);
    const span = `${shortTime(state.firstTimestamp ?? ctx.now)} \u2013 ${shortTime(state.lastTimestamp ?? ctx.now)}`;
    const also = others.length > 0 ? ` (also ${others.map(code).join(", ")})` : "";
    const on = state.branches.length > 0 ? ` on ${state.branches.map(code).join(" \u2192 ")}` : "";
    lines.push(`Session ${code(ctx.session)}${also}${on}, ${span}, ${plural(state.prompts, "prompt")}.`);
    if (edited > 0) {
      lines.push("", `Edited (${edited}):`);
      for (const f of state.edited.slice(0, MAX_LISTED_FILES))
        lines.push(`- ${f}`);
      if (edited > MAX_LISTED_FILES)
        lines.push(`- \u2026 and ${edited - MAX_LISTED_FILES} more`);
    }
    if (commits > 0) {
      lines.push("", `Commits (${commits}):`);
      for (const c of state.commits)
        lines.push(`- ${c.hash === void 0 ? "" : `\`${c.hash.slice(0, 7)}\` `}${c.subject}`);
    }
    if (state.commands > 0) {
      lines.push("", `Commands (${state.commands}), latest:`);
      for (const c of state.recentCommands)
        lines.push(`- \`${c.replace(/`/g, "'")}\``);
    }
    if (state.read.length > 0)
      lines.push("", `Read ${plural(state.read.length, "file")}.`);
    out.push({
      type: "progress",
      summary: truncate(summary),
      body: lines.join("\n"),
      confidence: commits > 0 ? 0.9 : edited > 0 ? 0.85 : 0.8,
      tags: normalizeTags(["session", ...ctx.branch === void 0 ? [] : [ctx.branch]]),
      topic: `session/${ctx.session}`,
      layer: "structural",
      ...edited > 0 ? { files: state.edited.slice(0, MAX_LISTED_FILES) } : {},
      session: ctx.session,
      ...ctx.branch === void 0 ? {} : { branch: ctx.branch }
    });
  }
  return out;
}
function proseUnits(markdown2) {
  const units = [];
  let fence;
  let heading = "";
  let introducer;
  let block2 = [];
  let current;
  const push = () => {
    if (current)
      block2.push(current);
    current = void 0;
  };
  const closeBlock = () => {
    push();
    const text3 = block2.map((u) => u.text).join("\n");
    for (const u of block2)
      units.push({ ...u, block: text3 });
    block2 = [];
  };
  for (const line of markdown2.split("\n")) {
    const f = FENCE.exec(line);
    if (fence !== void 0) {
      if (f && f[1]?.[0] === fence[0] && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1])
        fence = void 0;
      continue;
    }
    if (f) {
      closeBlock();
      fence = f[1];
      introducer = void 0;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith(">") || trimmed.startsWith("|") || /^[-*_]{3,}$/.test(trimmed)) {
      closeBlock();
      introducer = void 0;
      continue;
    }
    if (trimmed === "") {
      closeBlock();
      continue;
    }
    if (HEADING2.test(line)) {
      closeBlock();
      heading = trimmed.replace(/^#+\s*/, "").replace(/\s*#+$/, "");
      introducer = heading;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      push();
      current = { text: trimmed.replace(LIST_ITEM, ""), block: "", heading, introducer, isListItem: true };
      continue;
    }
    if (LABEL_LINE.test(trimmed) && current === void 0) {
      closeBlock();
      heading = trimmed;
      introducer = trimmed;
      continue;
    }
    if (current && (!current.isListItem || /^\s/.test(line)))
      current.text += ` ${trimmed}`;
    else {
      push();
      introducer = void 0;
      current = { text: trimmed, block: "", heading, introducer, isListItem: false };
    }
  }
  closeBlock();
  return units;
}
function sentenceSpans(text3) {
  const out = [];
  const re = /[.!?]+(?=\s+[A-Z0-9`*_"'([\u00a4])/g;
  let start = 0;
  let match;
  while ((match = re.exec(text3)) !== null) {
    const end = match.index + match[0].length;
    if (ABBREVIATIONS.test(text3.slice(start, end)))
      continue;
    out.push([start, end]);
    start = end;
  }
  if (text3.slice(start).trim() !== "")
    out.push([start, text3.length]);
  return out;
}
function sentences(text3) {
  const masked = maskInline(text3);
  return sentenceSpans(masked).map(([a, b]) => text3.slice(a, b).trim()).filter((s) => s !== "");
}
function maskInline(text3) {
  const hide = (m) => MASK.repeat(m.length);
  return text3.replace(/`+[^`]*`+/g, hide).replace(/\]\([^)\s]*\)/g, (m) => `]${hide(m.slice(1))}`).replace(/https?:\/\/\S+/g, hide).replace(/"[^"\n]*"|\u201c[^\u201d\n]*\u201d/g, hide);
}
function cleanSummary(markdown2) {
  const text3 = markdown2.replace(/!\[[^\]]*\]\([^)]*\)/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<\/?[a-zA-Z][^>]*>/g, "").replace(/`+([^`]*)`+/g, "$1").replace(/(\*\*|__)(.+?)\1/g, "$2").replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,:;!?]|$)/g, "$1$2").replace(/^\s*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/, "").replace(/\*\*|__/g, "");
  return truncate(oneLine3(text3));
}
function listHeadingType(unit) {
  const intro = unit.introducer;
  if (!unit.isListItem || intro === void 0 || OPEN_HEADING.test(intro))
    return void 0;
  if (REJECTED_HEADING.test(intro))
    return "rejected";
  if (DECISION_HEADING.test(intro))
    return "decision";
  return void 0;
}
function keywordCandidates(text3, ctx) {
  const out = [];
  for (const unit of proseUnits(text3)) {
    const parts = sentences(unit.text);
    const underDecisions = listHeadingType(unit);
    for (let i = 0; i < parts.length; i++) {
      const sentence = parts[i] ?? "";
      if (/\[MEMORY:/i.test(sentence))
        continue;
      const headingType = i === 0 ? underDecisions : void 0;
      const scored = scoreSentence(sentence, { headingType, heading: unit.heading, sidechain: ctx.sidechain === true });
      if (scored === void 0)
        continue;
      const intro = headingType !== void 0 && unit.introducer !== void 0 ? `${cleanSummary(unit.introducer).replace(/:$/, "")}: ` : "";
      const summary = cleanSummary(intro + sentence);
      if (summary.length < 12)
        continue;
      out.push({
        type: scored.type,
        summary,
        body: truncateBody(unit.block),
        confidence: scored.confidence,
        tags: tagsOf(sentence),
        layer: "keyword",
        ...filesField(unit.block),
        session: ctx.session,
        ...ctx.branch === void 0 ? {} : { branch: ctx.branch }
      });
    }
  }
  return out;
}
function scoreSentence(sentence, ctx) {
  if (sentence.length > MAX_SENTENCE_CHARS)
    return void 0;
  const masked = maskInline(sentence);
  const words = masked.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
  const total = masked.split(/\s+/).filter(Boolean).length;
  if (total > MAX_WORDS)
    return void 0;
  let type;
  let base = 0;
  let markers = 0;
  const label2 = LABEL.exec(masked.trim());
  if (label2) {
    const name = (label2[1] ?? "").trim();
    for (const [re, t, b] of LABELS) {
      if (re.test(name)) {
        type = t;
        base = b;
        markers++;
        break;
      }
    }
  }
  for (const m of MARKERS) {
    if (!m.re.test(masked))
      continue;
    markers++;
    if (type === void 0 || m.base > base) {
      if (type !== void 0 && type !== m.type && label2)
        continue;
      type = m.type;
      base = m.base;
    }
  }
  if (type === void 0 && ctx.headingType !== void 0) {
    type = ctx.headingType;
    base = 0.65;
    markers = 1;
  }
  if (type === void 0)
    return void 0;
  if (words < (ctx.headingType !== void 0 || label2 ? MIN_LIST_WORDS : MIN_WORDS))
    return void 0;
  if (PROCEDURAL.test(masked))
    return void 0;
  if (type === "rejected" && REJECTED_RUNTIME.test(masked))
    return void 0;
  if (masked.includes("?"))
    return void 0;
  let confidence = base;
  if (markers > 1)
    confidence += 0.05;
  if (REASON.test(masked))
    confidence += 0.15;
  if (WE.test(masked))
    confidence += 0.05;
  if (ctx.headingType !== void 0 && markers > 1)
    confidence += 0.05;
  if (DECISION_HEADING.test(ctx.heading) && type === "decision")
    confidence += 0.05;
  const hedges = new Set((masked.match(HEDGE) ?? []).map((h) => h.toLowerCase())).size;
  confidence -= Math.min(0.45, hedges * 0.2);
  if (FIRST_PERSON_STEP.test(masked))
    confidence -= 0.2;
  if (CONDITIONAL.test(masked.trim()))
    confidence -= 0.2;
  if (ctx.sidechain)
    confidence -= 0.15;
  return { type, confidence: round(clamp(confidence, 0, 0.95)) };
}
function isAcceptance(prompt) {
  const text3 = prompt.trim();
  if (text3.split(/\s+/).length > 15)
    return false;
  return AFFIRMATIVE.test(text3) && !/\b(?:but|instead|don't|do not|no,)\b/i.test(text3);
}
function selfReports(text3, ctx) {
  if (!/\[MEMORY:/i.test(text3))
    return [];
  const out = [];
  for (const block2 of proseBlocks(text3)) {
    const masked = block2.replace(/`+[^`]*`+/g, (m) => " ".repeat(m.length));
    const tags = [...masked.matchAll(MEMORY_TAG)];
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i];
      if (tag === void 0)
        continue;
      const start = (tag.index ?? 0) + tag[0].length;
      const end = tags[i + 1]?.index ?? block2.length;
      const raw = block2.slice(start, end).split(/\n\s*(?:[-*+]|\d+[.)])\s+/)[0] ?? "";
      const body = raw.trim();
      if (body === "")
        continue;
      const summary = cleanSummary(sentences(oneLine3(body))[0] ?? body);
      if (summary === "")
        continue;
      out.push({
        type: selfReportType(tag[1] ?? ""),
        summary,
        body: truncateBody(body),
        confidence: 1,
        tags: tagsOf(body),
        layer: "self-report",
        ...filesField(body),
        session: ctx.session,
        ...ctx.branch === void 0 ? {} : { branch: ctx.branch }
      });
    }
  }
  return out;
}
function selfReportType(tag) {
  const key = tag.trim().toLowerCase();
  if (isMemoryType(key))
    return key;
  return SELF_REPORT_ALIASES[key] ?? "context";
}
function proseBlocks(markdown2) {
  const blocks = [];
  let fence;
  let current = [];
  const flush = () => {
    if (current.length > 0)
      blocks.push(current.join("\n"));
    current = [];
  };
  for (const line of markdown2.split("\n")) {
    const f = FENCE.exec(line);
    if (fence !== void 0) {
      if (f && f[1]?.[0] === fence[0] && line.trim() === f[1])
        fence = void 0;
      continue;
    }
    if (f) {
      flush();
      fence = f[1];
      continue;
    }
    if (line.trim() === "" || line.trim().startsWith(">"))
      flush();
    else
      current.push(line);
  }
  flush();
  return blocks;
}
function rememberRequests(prompt, ctx) {
  const out = [];
  for (const match of prompt.matchAll(REMEMBER)) {
    const first = (match[1] ?? "").trim();
    if (first.endsWith("?"))
      continue;
    const c = userPreference(first, ctx);
    if (c.summary.length >= 8)
      out.push(c);
  }
  return out;
}
function userPreference(text3, ctx) {
  const clean = cleanSummary(text3);
  const summary = clean.charAt(0).toUpperCase() + clean.slice(1);
  return {
    type: "preference",
    summary,
    body: truncateBody(text3.trim()),
    confidence: 1,
    tags: tagsOf(text3),
    layer: "self-report",
    ...filesField(text3),
    session: ctx.session,
    ...ctx.branch === void 0 ? {} : { branch: ctx.branch }
  };
}
function dedupe(candidates) {
  const best = /* @__PURE__ */ new Map();
  candidates.forEach((c, order) => {
    const key = c.topic !== void 0 ? `topic:${c.topic}` : `summary:${normalizeSummary(c.summary)}`;
    const prev = best.get(key);
    if (prev === void 0)
      best.set(key, { c, order });
    else if (LAYER_RANK[c.layer] < LAYER_RANK[prev.c.layer] || c.layer === prev.c.layer && c.confidence > prev.c.confidence) {
      best.set(key, { c, order: prev.order });
    }
  });
  return [...best.values()].sort((a, b) => a.order - b.order).map((v) => v.c);
}
function normalizeSummary(summary) {
  return summary.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
function tagsOf(text3) {
  const tags = [];
  for (const m of text3.matchAll(CODE_TAG)) {
    const t = m[1] ?? "";
    if (!/^[@\w][\w@./-]*$/.test(t) || /\.\w{1,5}$/.test(t) || /^[\d.]+$/.test(t))
      continue;
    tags.push(t);
    if (tags.length === 3)
      break;
  }
  return normalizeTags(tags);
}
function filesField(text3) {
  const files = [];
  for (const m of text3.matchAll(FILE_PATH)) {
    const f = m[1] ?? "";
    if (!files.includes(f))
      files.push(f);
    if (files.length === 10)
      break;
  }
  return files.length > 0 ? { files } : {};
}
function relativePath(path3, root) {
  if (root === void 0 || root === "")
    return path3;
  const base = root.endsWith("/") || root.endsWith("\\") ? root : `${root}${root.includes("\\") && !root.includes("/") ? "\\" : "/"}`;
  return path3.startsWith(base) ? path3.slice(base.length) : path3;
}
function basename3(path3) {
  return path3.split(/[\\/]/).pop() ?? path3;
}
function shortCommand(command2) {
  const first = command2.trim().split("\n")[0] ?? "";
  return first.length > 80 ? `${first.slice(0, 79)}\u2026` : first;
}
function shortTime(value2) {
  const iso = typeof value2 === "string" ? value2 : value2.toISOString();
  return iso.replace(/:\d{2}(?:\.\d+)?Z$/, "Z");
}
function code(text3) {
  return `\`${text3}\``;
}
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
function oneLine3(text3) {
  return text3.replace(/\s+/g, " ").trim();
}
function normalizeSpace(text3) {
  return text3.replace(/\s+/g, " ").trim();
}
function truncate(text3, max = MAX_CANDIDATE_SUMMARY) {
  if (text3.length <= max)
    return text3;
  const cut = text3.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:—-]+$/, "")}\u2026`;
}
function truncateBody(text3) {
  return text3.length <= MAX_BODY_CHARS ? text3 : `${text3.slice(0, MAX_BODY_CHARS - 1).trimEnd()}\u2026`;
}
function clamp(n, min, max) {
  return Math.min(max, Math.max(min, n));
}
function round(n) {
  return Math.round(n * 100) / 100;
}
function str2(value2) {
  return typeof value2 === "string" ? value2 : void 0;
}
function isObject(value2) {
  return value2 !== null && typeof value2 === "object" && !Array.isArray(value2);
}
var DEFAULT_EXTRACT, MAX_CANDIDATE_SUMMARY, SELF_REPORT_ALIASES, EDIT_TOOLS, READ_TOOLS, RECENT_COMMANDS, MAX_LISTED_FILES, MAX_PENDING_TOOLS, NOT_RUN, GIT_COMMIT, COMMIT_LINE, FENCE, LIST_ITEM, HEADING2, LABEL_LINE, ABBREVIATIONS, MASK, MARKERS, LABELS, LABEL, DECISION_HEADING, REJECTED_HEADING, OPEN_HEADING, REASON, WE, HEDGE, FIRST_PERSON_STEP, CONDITIONAL, PROCEDURAL, REJECTED_RUNTIME, MIN_WORDS, MIN_LIST_WORDS, MAX_WORDS, MAX_SENTENCE_CHARS, MAX_BODY_CHARS, ACCEPTANCE_BOOST, AFFIRMATIVE, MEMORY_TAG, REMEMBER, LAYER_RANK, CODE_TAG, FILE_PATH;
var init_extract = __esm({
  "dist/core/extract.js"() {
    "use strict";
    init_memory();
    DEFAULT_EXTRACT = {
      threshold: 0.7,
      reviewFloor: 0.4
    };
    MAX_CANDIDATE_SUMMARY = 200;
    SELF_REPORT_ALIASES = {
      learned: "gotcha",
      learning: "gotcha",
      lesson: "gotcha",
      til: "gotcha",
      pitfall: "gotcha",
      warning: "gotcha",
      bug: "gotcha",
      decided: "decision",
      choice: "decision",
      reject: "rejected",
      rejection: "rejected",
      "rejected-approach": "rejected",
      arch: "architecture",
      design: "architecture",
      convention: "pattern",
      pref: "preference",
      todo: "plan",
      note: "context",
      fact: "context",
      info: "context"
    };
    EDIT_TOOLS = /* @__PURE__ */ new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
    READ_TOOLS = /* @__PURE__ */ new Set(["Read", "NotebookRead"]);
    RECENT_COMMANDS = 10;
    MAX_LISTED_FILES = 30;
    MAX_PENDING_TOOLS = 200;
    NOT_RUN = /^(?:The user doesn't want to proceed|\[Request interrupted|\w+:\w+ hook error|Permission to use \w+ has been denied)/;
    GIT_COMMIT = /(?:^|[\s;&|(])git\s+(?:-[Cc]\s+\S+\s+|--?[\w-]+(?:=\S+)?\s+)*commit\b/;
    COMMIT_LINE = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$/m;
    FENCE = /^\s{0,3}(`{3,}|~{3,})/;
    LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
    HEADING2 = /^\s{0,3}#{1,6}\s+/;
    LABEL_LINE = /^\s*(?:\*\*|__)?[^*_:\n]{2,40}(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*$/;
    ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|Mr|Mrs|Dr|St|No)|\b[A-Z])\.$/;
    MASK = "\xA4";
    MARKERS = [
      { name: "decided-against", re: /\bdecided (?:against|not to)\b/i, type: "rejected", base: 0.7 },
      { name: "ruled-out", re: /\bruled (?:\w+ )?out\b/i, type: "rejected", base: 0.7 },
      { name: "rejected", re: /\brejected\b/i, type: "rejected", base: 0.55 },
      { name: "we-wont-use", re: /\bwe(?:'ll| will)? (?:not|won't|don't|do not) (?:use|go with|adopt|need)\b/i, type: "rejected", base: 0.5 },
      { name: "chose-over", re: /\b(?:chose|chosen|picked|prefer(?:red)?|opted for|went with|going with|go with|settled on)\b[^.;]{1,80}?\bover\b/i, type: "decision", base: 0.75 },
      { name: "decided", re: /\b(?:decided|decision (?:is|was)|made the (?:call|decision))\b/i, type: "decision", base: 0.6 },
      { name: "go-with", re: /\b(?:we'll|we will|let's|we're|we are|I'll|I will|I'm)\s+(?:go(?:ing)?|stick(?:ing)?)\s+with\b/i, type: "decision", base: 0.6 },
      { name: "opted", re: /\b(?:opted (?:for|to)|settled on|chose|went with)\b/i, type: "decision", base: 0.6 },
      { name: "cleanest-way", re: /\bis the (?:cleanest|simplest|best|right|safest) (?:way|approach|option|choice|fix)\b/i, type: "decision", base: 0.55 },
      { name: "stick-with", re: /\bstick(?:ing)? with\b/i, type: "decision", base: 0.5 },
      { name: "recommend", re: /\b(?:I(?:'d| would)? recommend|recommendation)\b/i, type: "decision", base: 0.45 },
      { name: "instead-of", re: /\binstead of\b/i, type: "decision", base: 0.45 },
      { name: "root-cause", re: /\broot cause\b/i, type: "gotcha", base: 0.65 },
      { name: "the-fix-was", re: /\bthe (?:fix|solution|workaround|trick) (?:was|is|turned out)\b/i, type: "gotcha", base: 0.65 },
      { name: "gotcha", re: /\bgotcha\b/i, type: "gotcha", base: 0.65 },
      { name: "turns-out", re: /\bturn(?:s|ed) out\b/i, type: "gotcha", base: 0.6 },
      { name: "the-problem-was", re: /\bthe (?:issue|problem|bug|culprit) (?:was|is) (?:that|caused by)\b/i, type: "gotcha", base: 0.5 },
      { name: "convention", re: /\bthe (?:convention|pattern|rule) (?:here |in this (?:repo|codebase|project) )?is\b/i, type: "pattern", base: 0.6 },
      { name: "always-never", re: /\b(?:always|never) (?:use|call|run|import|put|write|pass|wrap|prefer|add|keep)\b/i, type: "pattern", base: 0.5 }
    ];
    LABELS = [
      [/^(?:decision|decided|final decision)$/i, "decision", 0.7],
      [/^(?:rejected|ruled out|not doing|dropped|out of scope|cut|won't do|alternatives? rejected)$/i, "rejected", 0.65],
      [/^(?:root cause|gotcha|pitfall|lesson(?:s)? learned|lesson|caveat)$/i, "gotcha", 0.7],
      [/^(?:fix|solution|workaround)$/i, "gotcha", 0.5],
      [/^(?:convention|pattern|rule)$/i, "pattern", 0.6],
      [/^(?:recommendation|recommended approach|proposed solution|approach)$/i, "decision", 0.5]
    ];
    LABEL = /^(?:\*\*|__)?([A-Za-z][A-Za-z' ]{1,30}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s+(?=\S)/;
    DECISION_HEADING = /\bdecisions?\b|\bdecided\b/i;
    REJECTED_HEADING = /\b(?:rejected|ruled out|not doing|out of scope|cut|alternatives considered)\b/i;
    OPEN_HEADING = /\b(?:to (?:make|take|decide)|open|pending|needed|outstanding|undecided|questions?|challenges|issues|problems)\b|\?/i;
    REASON = /\b(?:because|since|so that|due to|given that|as it|which means|in order to)\b|, so\b/i;
    WE = /\b(?:we|we've|we'll|we're|let's|our)\b/i;
    HEDGE = /\b(?:maybe|might|could|perhaps|possibly|probably|I think|not sure|consider(?:ing)?|would|may|if needed|optionally)\b/gi;
    FIRST_PERSON_STEP = /\b(?:I'll|I will|let me|I'm going to|I need to|I'm about to|now I)\b/i;
    CONDITIONAL = /^(?:if|when|unless|whether|once)\b/i;
    PROCEDURAL = /\b(?:decided|chose|opted|going|go|decide)\s+(?:to\s+)?(?:first\s+)?(?:read|check|look|start|run|search|open|inspect|examine|explore|investigate|review|verify|test|try|see|grep|list|scan|debug|dig|take a look|begin|continue|re-?run|fetch)\b/i;
    REJECTED_RUNTIME = /\b(?:tool use|promise|request|permission|prompt|hook|push|commit|connection|credentials|token|by the (?:user|server|api|remote))\b[^.]{0,40}\brejected\b|\brejected\b[^.]{0,40}\b(?:tool use|promise|request|permission|by the (?:user|server|api|remote)|with (?:status|error|an? error))\b|\bwas rejected \(/i;
    MIN_WORDS = 5;
    MIN_LIST_WORDS = 3;
    MAX_WORDS = 60;
    MAX_SENTENCE_CHARS = 400;
    MAX_BODY_CHARS = 1200;
    ACCEPTANCE_BOOST = 0.15;
    AFFIRMATIVE = /^(?:y|yes|yep|yeah|yup|sure|ok(?:ay)?|go ahead|go for it|do it|do that|sounds good|looks good|lgtm|perfect|great|agreed?|approved?|proceed|let's do (?:it|that)|please do|ship it|that works|correct|exactly)\b/i;
    MEMORY_TAG = /\[MEMORY:\s*([A-Za-z_-]*)\s*\]/gi;
    REMEMBER = /(?:^|[.!?]\s+|\n\s*)(?:(?:please|also|and|oh|btw),?\s+)*(?:always\s+)?remember(?:\s+that\b|\s*:|,)\s*([^\n]+?(?:[.!?](?=\s|$)|(?=\n)|$))/gi;
    LAYER_RANK = { "self-report": 0, structural: 1, keyword: 2 };
    CODE_TAG = /`([^`\s]{2,40})`/g;
    FILE_PATH = /(?:^|[\s`'"(])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|java|rb|ya?ml|toml|css|scss|html|sh|sql|vue|svelte|c|h|cpp|hpp|cs|kt|swift|php|lock|txt))(?=[\s`'"),:;]|\.(?:\s|$)|$)/g;
  }
});

// dist/core/transcript.js
function parseTranscriptChunk(chunk, options = {}) {
  const opts = { ...DEFAULT_PARSE_TRANSCRIPT, ...options };
  const state = {
    events: [],
    diagnostics: [],
    file: opts.file,
    seenUuids: /* @__PURE__ */ new Set(),
    seenBlocks: /* @__PURE__ */ new Set()
  };
  let consumedBytes = 0;
  if (typeof chunk === "string") {
    const end = chunk.lastIndexOf("\n");
    let start = 0;
    while (start <= end) {
      const nl = chunk.indexOf("\n", start);
      const line = chunk.slice(start, nl);
      parseLine(line, opts.startOffset + consumedBytes, state);
      consumedBytes += utf8Length(line) + 1;
      start = nl + 1;
    }
  } else {
    const end = chunk.lastIndexOf(NEWLINE);
    let start = 0;
    while (start <= end) {
      const nl = chunk.indexOf(NEWLINE, start);
      parseLine(decoder.decode(chunk.subarray(start, nl)), opts.startOffset + start, state);
      start = nl + 1;
    }
    consumedBytes = end + 1;
  }
  return { events: state.events, consumedBytes, diagnostics: state.diagnostics };
}
function utf8Length(text3) {
  let bytes = 0;
  for (let i = 0; i < text3.length; i++) {
    const c = text3.charCodeAt(i);
    if (c < 128)
      bytes += 1;
    else if (c < 2048)
      bytes += 2;
    else if (c >= 55296 && c <= 56319 && i + 1 < text3.length) {
      const next = text3.charCodeAt(i + 1);
      if (next >= 56320 && next <= 57343) {
        bytes += 4;
        i++;
      } else
        bytes += 3;
    } else
      bytes += 3;
  }
  return bytes;
}
function parseLine(raw, offset, state) {
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (line.charCodeAt(0) === 65279)
    line = line.slice(1);
  if (line.trim() === "")
    return;
  let value2;
  try {
    value2 = JSON.parse(line);
  } catch (err) {
    const reason = `Expected one JSON object per line; found ${excerpt2(line)} (${err.message})`;
    state.diagnostics.push(lineDiagnostic(state, offset, "transcript-invalid-json", reason));
    return;
  }
  if (value2 === null || typeof value2 !== "object" || Array.isArray(value2)) {
    const reason = `Expected a JSON object such as {"type":"user",\u2026}; found ${excerpt2(line)}`;
    state.diagnostics.push(lineDiagnostic(state, offset, "transcript-not-object", reason));
    return;
  }
  const obj = value2;
  const uuid = str3(obj.uuid);
  if (uuid !== void 0) {
    if (state.seenUuids.has(uuid))
      return;
    state.seenUuids.add(uuid);
  }
  const env = envelope(obj, offset);
  const type = str3(obj.type);
  switch (type) {
    case "user":
      parseUser(obj, env, state);
      return;
    case "assistant":
      parseAssistant(obj, env, state);
      return;
    case "summary":
      state.events.push({ ...env, kind: "meta", subtype: "summary", text: str3(obj.summary) });
      return;
    case "system":
      state.events.push({ ...env, kind: "meta", subtype: "system", text: stripAnsi(str3(obj.content) ?? str3(obj.subtype) ?? "") });
      return;
    case void 0:
      const reason = `Expected a "type" field such as "user" or "assistant"; found ${excerpt2(line)}`;
      state.diagnostics.push(lineDiagnostic(state, offset, "transcript-missing-type", reason, "warning"));
      return;
    default:
      state.events.push({ ...env, kind: "meta", subtype: type });
  }
}
function envelope(obj, offset) {
  const env = { offset, isSidechain: obj.isSidechain === true };
  const uuid = str3(obj.uuid);
  if (uuid !== void 0)
    env.uuid = uuid;
  const parent = str3(obj.parentUuid);
  if (parent !== void 0)
    env.parentUuid = parent;
  const session = str3(obj.sessionId);
  if (session !== void 0)
    env.sessionId = session;
  const timestamp = str3(obj.timestamp);
  if (timestamp !== void 0)
    env.timestamp = timestamp;
  const cwd = str3(obj.cwd);
  if (cwd !== void 0)
    env.cwd = cwd;
  const branch = str3(obj.gitBranch);
  if (branch !== void 0 && branch !== "")
    env.gitBranch = branch;
  return env;
}
function parseUser(obj, env, state) {
  const message = isObject2(obj.message) ? obj.message : {};
  const content = message.content;
  const isMeta = obj.isMeta === true;
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  const results = blocks.filter((b) => isObject2(b) && b.type === "tool_result").length;
  for (const block2 of blocks) {
    if (!isObject2(block2))
      continue;
    if (block2.type === "tool_result") {
      const event = {
        ...env,
        kind: "tool-result",
        toolUseId: str3(block2.tool_use_id) ?? "",
        content: flattenContent(block2.content),
        isError: block2.is_error === true
      };
      if (results === 1 && obj.toolUseResult !== void 0)
        event.structured = obj.toolUseResult;
      state.events.push(event);
    } else if (block2.type === "text") {
      const text3 = str3(block2.text) ?? "";
      if (isMeta)
        state.events.push({ ...env, kind: "meta", subtype: "is-meta", text: text3 });
      else
        state.events.push(classifyUserText(text3, env));
    }
  }
}
function classifyUserText(raw, env) {
  const text3 = raw.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
  if (text3 === "")
    return { ...env, kind: "meta", subtype: "system-reminder", text: raw };
  if (text3.includes("<command-name>") || text3.startsWith("<command-message>")) {
    const name = /<command-name>([^<]*)<\/command-name>/.exec(text3)?.[1]?.trim() ?? "";
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text3)?.[1]?.trim() ?? "";
    return { ...env, kind: "command", name, args };
  }
  const memory = /^<user-memory-input>([\s\S]*?)<\/user-memory-input>/.exec(text3);
  if (memory)
    return { ...env, kind: "meta", subtype: "memory-input", text: (memory[1] ?? "").trim() };
  for (const [pattern, subtype] of WRAPPERS) {
    if (pattern.test(text3))
      return { ...env, kind: "meta", subtype, text: text3 };
  }
  return { ...env, kind: "prompt", text: text3 };
}
function parseAssistant(obj, env, state) {
  const message = isObject2(obj.message) ? obj.message : {};
  const messageId = str3(message.id);
  const synthetic = message.model === "<synthetic>" || obj.isApiErrorMessage === true;
  const content = message.content;
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  const base = messageId === void 0 ? env : { ...env, messageId };
  for (const block2 of blocks) {
    if (!isObject2(block2))
      continue;
    const key = messageId === void 0 ? void 0 : `${messageId}\0${blockKey(block2)}`;
    if (key !== void 0) {
      if (state.seenBlocks.has(key))
        continue;
      state.seenBlocks.add(key);
    }
    switch (block2.type) {
      case "text":
        state.events.push({ ...base, kind: "text", text: str3(block2.text) ?? "", synthetic });
        break;
      case "thinking":
      case "redacted_thinking":
        state.events.push({ ...base, kind: "thinking", text: str3(block2.thinking) ?? "" });
        break;
      case "tool_use":
      case "server_tool_use":
        state.events.push({
          ...base,
          kind: "tool-use",
          id: str3(block2.id) ?? "",
          name: str3(block2.name) ?? "",
          input: isObject2(block2.input) ? block2.input : {}
        });
        break;
      default:
        break;
    }
  }
}
function blockKey(block2) {
  if (block2.type === "tool_use" || block2.type === "server_tool_use")
    return `tool:${str3(block2.id) ?? ""}`;
  if (block2.type === "text")
    return `text:${str3(block2.text) ?? ""}`;
  if (block2.type === "thinking")
    return `thinking:${str3(block2.thinking) ?? ""}`;
  return `${String(block2.type)}:${JSON.stringify(block2)}`;
}
function flattenContent(content) {
  if (typeof content === "string")
    return content;
  if (!Array.isArray(content))
    return "";
  const parts = [];
  for (const block2 of content) {
    if (isObject2(block2) && typeof block2.text === "string")
      parts.push(block2.text);
  }
  return parts.join("\n");
}
function stripAnsi(text3) {
  return text3.replace(/\u001b\[[0-9;]*m/g, "");
}
function lineDiagnostic(state, offset, ruleId, reason, severity = "error") {
  return { file: state.file, offset, reason, ruleId, severity, hint: "The line is skipped; the rest of the transcript is still read." };
}
function excerpt2(text3) {
  return JSON.stringify(text3.length > 60 ? `${text3.slice(0, 60)}\u2026` : text3);
}
function str3(value2) {
  return typeof value2 === "string" ? value2 : void 0;
}
function isObject2(value2) {
  return value2 !== null && typeof value2 === "object" && !Array.isArray(value2);
}
var DEFAULT_PARSE_TRANSCRIPT, NEWLINE, decoder, WRAPPERS;
var init_transcript = __esm({
  "dist/core/transcript.js"() {
    "use strict";
    DEFAULT_PARSE_TRANSCRIPT = {
      startOffset: 0,
      file: "transcript.jsonl"
    };
    NEWLINE = 10;
    decoder = new TextDecoder("utf-8");
    WRAPPERS = [
      [/^<local-command-(?:stdout|stderr|caveat)>/, "command-output"],
      [/^<bash-input>/, "bash-input"],
      [/^<bash-(?:stdout|stderr)>/, "bash-output"],
      [/^<task-notification>/, "task-notification"],
      [/^<user-prompt-submit-hook>/, "command-output"],
      [/^\[Request interrupted by user/, "interrupted"],
      [/^This session is being continued from a previous conversation/, "continuation"],
      [/^Caveat: The messages below were generated by the user while running local commands/, "is-meta"]
    ];
  }
});

// dist/git/head-file.js
import { readFileSync as readFileSync17, statSync as statSync11 } from "node:fs";
import { isAbsolute as isAbsolute5, join as join20, resolve as resolve7 } from "node:path";
function read(path3) {
  try {
    return readFileSync17(path3, "utf8");
  } catch {
    return void 0;
  }
}
function gitDirOf2(root) {
  const dotGit = join20(root, ".git");
  try {
    if (statSync11(dotGit).isDirectory())
      return dotGit;
  } catch {
    return void 0;
  }
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(read(dotGit) ?? "")?.[1];
  if (pointer === void 0)
    return void 0;
  return isAbsolute5(pointer) ? pointer : resolve7(root, pointer);
}
function resolveRef(gitDir, ref) {
  const common = read(join20(gitDir, "commondir"))?.trim();
  const dirs = common ? [gitDir, isAbsolute5(common) ? common : resolve7(gitDir, common)] : [gitDir];
  for (const dir of dirs) {
    const loose = read(join20(dir, ref))?.trim();
    if (loose !== void 0)
      return SHA.test(loose) ? loose : null;
  }
  for (const dir of dirs) {
    const packed = read(join20(dir, "packed-refs"));
    if (packed === void 0)
      continue;
    for (const line of packed.split("\n")) {
      const [sha, name] = line.split(" ");
      if (name?.trim() === ref && sha !== void 0 && SHA.test(sha))
        return sha;
    }
  }
  return void 0;
}
function readHeadFile(dir) {
  const root = findGitRoot(dir);
  if (root === void 0)
    return {};
  const gitDir = gitDirOf2(root);
  if (gitDir === void 0)
    return void 0;
  const head = read(join20(gitDir, "HEAD"))?.trim();
  if (head === void 0)
    return void 0;
  if (SHA.test(head))
    return { commit: head };
  const ref = /^ref:\s*(refs\/\S+)$/.exec(head)?.[1];
  if (ref === void 0)
    return void 0;
  if (read(join20(gitDir, "refs", "heads")) !== void 0)
    return void 0;
  const commit2 = resolveRef(gitDir, ref);
  if (commit2 === null)
    return void 0;
  const branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : void 0;
  return { branch, commit: commit2 };
}
var SHA;
var init_head_file = __esm({
  "dist/git/head-file.js"() {
    "use strict";
    init_paths();
    SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
  }
});

// dist/store/session-file.js
import { mkdirSync as mkdirSync4, renameSync as renameSync3, rmSync as rmSync8, writeFileSync as writeFileSync3 } from "node:fs";
import { basename as basename4, dirname as dirname5, join as join21 } from "node:path";
function fnv64(text3) {
  let a = 2166136261;
  let b = 16777619 ^ text3.length;
  for (let i = 0; i < text3.length; i++) {
    const c = text3.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619) >>> 0;
    b = Math.imul(b ^ c ^ a >>> 7, 16777619) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
function sessionFileName(session) {
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(session) && !session.includes(".."))
    return `${session}.json`;
  return `session-${fnv64(session)}.json`;
}
function writeSmallFileAtomic(path3, text3) {
  mkdirSync4(dirname5(path3), { recursive: true });
  const tmp = join21(dirname5(path3), `.${basename4(path3)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    writeFileSync3(tmp, text3);
    renameSync3(tmp, path3);
  } catch (err) {
    rmSync8(tmp, { force: true });
    throw err;
  }
}
var init_session_file = __esm({
  "dist/store/session-file.js"() {
    "use strict";
  }
});

// dist/store/checkpoint.js
import { readdirSync as readdirSync5, readFileSync as readFileSync18, rmSync as rmSync9, statSync as statSync12 } from "node:fs";
import { join as join22 } from "node:path";
function checkpointDir(cacheDir) {
  return join22(cacheDir, "transcripts");
}
function isCheckpoint(value2) {
  const c = value2;
  return typeof c === "object" && c !== null && c.version === CHECKPOINT_VERSION && typeof c.session === "string" && typeof c.transcript === "string" && Number.isSafeInteger(c.offset) && c.offset >= 0 && typeof c.ino === "number" && typeof c.dev === "number" && typeof c.size === "number";
}
function readJson(path3) {
  try {
    return JSON.parse(readFileSync18(path3, "utf8"));
  } catch {
    return void 0;
  }
}
function readCheckpoint(cacheDir, session) {
  const value2 = readJson(join22(checkpointDir(cacheDir), checkpointName(session)));
  return isCheckpoint(value2) && value2.session === session ? value2 : void 0;
}
function findCheckpointByTranscript(cacheDir, transcript, ino) {
  let names;
  try {
    names = readdirSync5(checkpointDir(cacheDir)).filter((n) => n.endsWith(".json"));
  } catch {
    return void 0;
  }
  let best;
  for (const name of names) {
    const value2 = readJson(join22(checkpointDir(cacheDir), name));
    if (!isCheckpoint(value2) || value2.transcript !== transcript || value2.ino !== ino)
      continue;
    if (best === void 0 || value2.offset > best.offset)
      best = value2;
  }
  return best;
}
function writeCheckpoint(cacheDir, checkpoint) {
  writeFileAtomic(join22(checkpointDir(cacheDir), checkpointName(checkpoint.session)), `${JSON.stringify(checkpoint)}
`);
}
function pruneCheckpoints(cacheDir, options) {
  let removed = 0;
  let names;
  try {
    names = readdirSync5(checkpointDir(cacheDir));
  } catch {
    return 0;
  }
  for (const name of names) {
    const path3 = join22(checkpointDir(cacheDir), name);
    try {
      if (options.now - statSync12(path3).mtimeMs > options.maxAgeMs) {
        rmSync9(path3, { force: true });
        removed++;
      }
    } catch {
    }
  }
  return removed;
}
var CHECKPOINT_VERSION, checkpointName;
var init_checkpoint = __esm({
  "dist/store/checkpoint.js"() {
    "use strict";
    init_atomic();
    init_session_file();
    CHECKPOINT_VERSION = 1;
    checkpointName = sessionFileName;
  }
});

// dist/core/autolink.js
function autoLinkScore(candidate) {
  const cosine2 = candidate.cosine;
  return cosine2 === void 0 || !Number.isFinite(cosine2) ? candidate.jaccard : Math.max(candidate.jaccard, cosine2);
}
function planAutoLinks(options) {
  const thresholds = options.thresholds ?? DEFAULT_PLAN_AUTO_LINKS.thresholds;
  const existingEdges = options.existingEdges ?? DEFAULT_PLAN_AUTO_LINKS.existingEdges;
  const self = options.memory.id;
  const created = formatDate(options.now);
  const linked = /* @__PURE__ */ new Set();
  const distinct = /* @__PURE__ */ new Set();
  for (const e of existingEdges) {
    const other = e.source === self ? e.target : e.target === self ? e.source : void 0;
    if (other === void 0)
      continue;
    linked.add(other);
    if (DISTINCT_RELATIONS.has(e.relation))
      distinct.add(other);
  }
  const best = /* @__PURE__ */ new Map();
  for (const candidate of options.candidates) {
    const score = autoLinkScore(candidate);
    if (candidate.id === self || !Number.isFinite(score) || checkEdgeId(candidate.id) !== void 0)
      continue;
    const previous = best.get(candidate.id);
    if (!previous || score > previous.score)
      best.set(candidate.id, { score, candidate });
  }
  const ranked = [...best.values()].sort((x, y) => y.score - x.score || (x.candidate.id < y.candidate.id ? -1 : x.candidate.id > y.candidate.id ? 1 : 0));
  const edges = [];
  const consolidate = [];
  for (const { score, candidate } of ranked) {
    const id = candidate.id;
    if (score >= thresholds.consolidateMin) {
      if (!distinct.has(id))
        consolidate.push({ a: self, b: id, score });
      continue;
    }
    if (score < thresholds.relatesMin || linked.has(id))
      continue;
    const byCosine = candidate.cosine !== void 0 && Number.isFinite(candidate.cosine) && candidate.cosine > candidate.jaccard;
    const measures = [`jaccard ${round3(candidate.jaccard)}`];
    if (candidate.cosine !== void 0 && Number.isFinite(candidate.cosine))
      measures.push(`cosine ${round3(candidate.cosine)}`);
    edges.push(buildEdge({
      source: self,
      target: id,
      relation: "relates_to",
      created,
      strength: Math.min(1, Math.max(0, round3(score))),
      status: score >= thresholds.suggestedMin ? "suggested" : "active",
      bidirectional: true,
      origin: byCosine ? "embedding" : "jaccard",
      body: `Linked automatically: ${measures.join(", ")}.`
    }));
  }
  return { edges, consolidate };
}
var DEFAULT_PLAN_AUTO_LINKS, DISTINCT_RELATIONS, round3;
var init_autolink = __esm({
  "dist/core/autolink.js"() {
    "use strict";
    init_config();
    init_edge();
    init_memory();
    DEFAULT_PLAN_AUTO_LINKS = {
      thresholds: DEFAULT_CONFIG.autolink,
      existingEdges: []
    };
    DISTINCT_RELATIONS = /* @__PURE__ */ new Set(["contradicts", "supersedes"]);
    round3 = (n) => Math.round(n * 1e3) / 1e3;
  }
});

// dist/core/similarity.js
function tokenSet(text3, options = {}) {
  const stopWords = options.stopWords ?? DEFAULT_TOKEN_SET.stopWords;
  const minLength = options.minLength ?? DEFAULT_TOKEN_SET.minLength;
  const tokens = /* @__PURE__ */ new Set();
  for (const [word] of text3.toLowerCase().matchAll(WORD)) {
    if (word.length >= minLength && !stopWords.has(word))
      tokens.add(word);
  }
  return tokens;
}
function jaccard(a, b) {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (large.size === 0)
    return 0;
  let common = 0;
  for (const token2 of small)
    if (large.has(token2))
      common++;
  return common / (a.size + b.size - common);
}
var STOP_WORDS2, DEFAULT_TOKEN_SET, WORD;
var init_similarity = __esm({
  "dist/core/similarity.js"() {
    "use strict";
    STOP_WORDS2 = new Set("a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either else few for from further had has have having he her here hers herself him himself his how however if in into is it its itself just me more most my myself neither no nor not now of off on once only or other our ours ourselves out over own same she should since so some such than that the their theirs them themselves then there these they this those through thus to too under until up upon us very was we were what when where whether which while who whom whose why will with within without would yet you your yours yourself yourselves".split(" "));
    DEFAULT_TOKEN_SET = { stopWords: STOP_WORDS2, minLength: 2 };
    WORD = /[\p{L}\p{N}]+/gu;
  }
});

// dist/api/autolink.js
import { createHash as createHash4 } from "node:crypto";
import { existsSync as existsSync13 } from "node:fs";
import { join as join23 } from "node:path";
function vectorKeyOf(memory, embeddingText2) {
  return createHash4("sha256").update(embeddingText2(memory)).digest("hex");
}
async function cachedVectors(ctx, tier) {
  const file = join23(tier.paths.cacheDir, "vectors.bin");
  if (!existsSync13(file))
    return void 0;
  const [{ loadVectorCache: loadVectorCache2 }, { embeddingText: embeddingText2, resolveEmbedOptions: resolveEmbedOptions2 }] = await Promise.all([
    Promise.resolve().then(() => (init_vectors(), vectors_exports)),
    Promise.resolve().then(() => (init_embedder(), embedder_exports))
  ]);
  const embed = resolveEmbedOptions2({ env: ctx.env, config: ctx.config });
  if (!embed.enabled)
    return void 0;
  const cache2 = await loadVectorCache2(file, { model: `${embed.model}:${embed.dtype}` });
  if (cache2.status !== "loaded" || cache2.size === 0)
    return void 0;
  return { get: (m) => cache2.get(vectorKeyOf(m, (x) => embeddingText2(x))) };
}
function cosineOf(a, b) {
  if (a.length !== b.length)
    return void 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
function wordsOf(memory) {
  return tokenSet(`${memory.summary}
${memory.body}`);
}
async function autoLinkMemory(ctx, input) {
  const o = { ...DEFAULT_AUTO_LINK, ...input.options };
  const { tier, memory } = input;
  const result = { edges: [], consolidate: [], compared: 0 };
  if (memory.status !== "active")
    return result;
  const query = [memory.summary, ...memory.tags].join(" ");
  const hits = tier.index.query(query, { limit: o.candidates + 1, statuses: ["active"], expand: false }).filter((h) => h.id !== memory.id);
  if (hits.length === 0)
    return result;
  const vectors = o.vectors === null ? void 0 : o.vectors ?? await cachedVectors(ctx, tier);
  const mine = wordsOf(memory);
  const myVector = vectors?.get(memory);
  const candidates = [];
  for (const hit of hits.slice(0, o.candidates)) {
    const doc = tier.index.docs.get(hit.id);
    if (!doc)
      continue;
    let other = { type: doc.type, summary: doc.summary, body: doc.preview };
    try {
      other = readMemoryById(tier.paths, doc.id, tier.base).memory ?? other;
    } catch {
    }
    const theirVector = myVector ? vectors?.get(other) : void 0;
    const cosine2 = myVector && theirVector ? cosineOf(myVector, theirVector) : void 0;
    candidates.push({ id: doc.id, jaccard: jaccard(mine, wordsOf(other)), ...cosine2 !== void 0 ? { cosine: cosine2 } : {} });
  }
  result.compared = candidates.length;
  const existingEdges = [];
  const exists2 = (key) => existsSync13(join23(tier.paths.edgesDir, edgeFileName(key)));
  const myDoc = tier.index.docs.get(memory.id);
  for (const c of candidates) {
    if (checkEdgeId(c.id) !== void 0 || checkEdgeId(memory.id) !== void 0)
      continue;
    for (const relation of RELATIONS) {
      const out = { source: memory.id, relation, target: c.id };
      const back = { source: c.id, relation, target: memory.id };
      if (exists2(out))
        existingEdges.push(out);
      if (exists2(back))
        existingEdges.push(back);
    }
    if (myDoc?.links?.includes(c.id))
      existingEdges.push({ source: memory.id, relation: "relates_to", target: c.id });
    if (tier.index.docs.get(c.id)?.links?.includes(memory.id))
      existingEdges.push({ source: c.id, relation: "relates_to", target: memory.id });
  }
  const rejected = new Set(listReview(tier.paths, { kind: "rejected" }).map((e) => e.id));
  const plan2 = planAutoLinks({
    memory,
    candidates: candidates.filter((c) => !rejected.has(pairId("rejected", memory.id, c.id))),
    thresholds: ctx.config.autolink,
    existingEdges,
    now: ctx.now()
  });
  const edges = plan2.edges.filter((edge) => edge.relation === "relates_to");
  if (edges.length > 0) {
    const cache2 = EdgeCache.load(tier.paths);
    cache2.refresh(tier.paths, { base: tier.base });
    for (const edge of edges) {
      const { file } = writeEdgeRecorded(tier, cache2, edge);
      result.edges.push({ source: edge.source, target: edge.target, relation: edge.relation, status: edge.status, strength: edge.strength, origin: edge.origin, file });
    }
    try {
      cache2.save(tier.paths);
    } catch {
    }
  }
  const created = formatDate(ctx.now());
  const entries = plan2.consolidate.map((c) => ({
    kind: "consolidate",
    id: pairId("consolidate", c.a, c.b),
    created,
    a: c.a,
    b: c.b,
    score: Math.round(c.score * 1e3) / 1e3
  }));
  await appendReview(tier.paths, entries);
  result.consolidate = plan2.consolidate;
  return result;
}
var DEFAULT_AUTO_LINK;
var init_autolink2 = __esm({
  "dist/api/autolink.js"() {
    "use strict";
    init_autolink();
    init_edge();
    init_memory();
    init_similarity();
    init_edge_cache();
    init_memory_store();
    init_graph2();
    init_review_queue();
    DEFAULT_AUTO_LINK = { candidates: 20, vectors: void 0 };
  }
});

// dist/api/remember.js
import { statSync as statSync13 } from "node:fs";
import { join as join24 } from "node:path";
function splitText(text3) {
  const trimmed = text3.replace(/\r\n?/g, "\n").trim();
  const newline = trimmed.indexOf("\n");
  if (newline !== -1) {
    const first = trimmed.slice(0, newline).replace(/^#+\s*/, "").trim();
    const rest = trimmed.slice(newline + 1);
    if (first.length <= MAX_SUMMARY)
      return { summary: first, body: normalizeBody(rest) };
  }
  if (trimmed.length <= MAX_SUMMARY && newline === -1)
    return { summary: trimmed, body: "" };
  const sentence = /^(.{20,}?[.!?])(\s|$)/s.exec(trimmed)?.[1] ?? trimmed;
  return { summary: shorten(sentence.replace(/\s+/g, " "), MAX_SUMMARY), body: trimmed };
}
function shorten(text3, max) {
  if (text3.length <= max)
    return text3;
  const cut = text3.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}\u2026`;
}
function validate(input) {
  if (input.type !== void 0 && !isMemoryType(input.type)) {
    throw new UsageError(`Unknown memory type "${input.type}".`, { hint: `Use one of: ${MEMORY_TYPES.join(", ")}.` });
  }
  if (input.priority !== void 0 && (!Number.isInteger(input.priority) || input.priority < 1 || input.priority > 10)) {
    throw new UsageError(`Priority must be an integer from 1 to 10, got ${input.priority}.`);
  }
  if (input.confidence !== void 0 && !(input.confidence >= 0 && input.confidence <= 1)) {
    throw new UsageError(`Confidence must be a number from 0 to 1, got ${input.confidence}.`);
  }
  if (input.scope !== void 0 && !SCOPES.includes(input.scope)) {
    throw new UsageError(`Unknown scope "${input.scope}".`, { hint: `Use one of: ${SCOPES.join(", ")}.` });
  }
  if (input.topic !== void 0 && input.topic.trim() === "")
    throw new UsageError("The topic must not be empty.");
}
function contentOf(input) {
  const fromText = input.text !== void 0 ? splitText(input.text) : { summary: "", body: "" };
  const rawSummary = (input.summary ?? fromText.summary).replace(/\s+/g, " ").trim();
  const rawBody = normalizeBody(input.body ?? fromText.body);
  if (rawSummary === "") {
    throw new UsageError("Nothing to remember: the text is empty.", {
      hint: "Pass the text as an argument, on stdin, or use --edit."
    });
  }
  const s = redactSecrets(shorten(rawSummary, 300));
  const b = redactSecrets(rawBody);
  return {
    summary: s.text,
    body: b.text,
    redacted: [...new Set([...s.findings, ...b.findings].map((f) => f.kind))]
  };
}
async function remember(ctx, input) {
  return (await rememberMany(ctx, [input]))[0];
}
async function rememberMany(ctx, inputs) {
  const prepared = inputs.map((input) => {
    validate(input);
    return {
      input,
      ...contentOf(input),
      type: input.type ?? DEFAULT_REMEMBER.type,
      scope: input.scope ?? DEFAULT_REMEMBER.scope,
      tags: normalizeTags(input.tags ?? [])
    };
  });
  const needsHead = prepared.some((p) => p.input.source?.branch === void 0 && p.scope !== "global");
  const head = needsHead ? await (await Promise.resolve().then(() => (init_head(), head_exports))).readHead(ctx.root) : void 0;
  const results = new Array(prepared.length);
  for (const scope of SCOPES) {
    const mine = prepared.map((p, i) => [p, i]).filter(([p]) => p.scope === scope);
    if (mine.length === 0)
      continue;
    const paths = scope === "project" ? ctx.paths : ctx.global;
    await withLock(join24(paths.cacheDir, "locks", "write.lock"), async () => {
      const tier = openTierIndex(ctx, scope, { save: false });
      const now = formatDate(ctx.now());
      try {
        for (const [p, i] of mine)
          results[i] = await rememberInTier(ctx, tier, p, scope === "global" ? void 0 : head, now);
      } finally {
        saveQuietly(tier.index, paths);
      }
    });
  }
  return results;
}
async function rememberInTier(ctx, tier, p, head, now) {
  const { input, summary, body, redacted, type, scope, tags } = p;
  const paths = tier.paths;
  const source = {
    kind: input.source?.kind ?? "manual",
    layer: input.source?.layer ?? "manual",
    ...input.source?.session !== void 0 ? { session: input.source.session } : {},
    ...(input.source?.branch ?? head?.branch) !== void 0 ? { branch: input.source?.branch ?? head?.branch } : {},
    ...(input.source?.commit ?? head?.commit) !== void 0 ? { commit: (input.source?.commit ?? head?.commit)?.slice(0, 12) } : {},
    ...input.source?.files && input.source.files.length > 0 ? { files: [...input.source.files] } : {}
  };
  if (input.topic !== void 0) {
    const existing = tier.index.findByTopic(input.topic, scope)[0];
    if (existing) {
      const current = readMemoryById(paths, existing.id, tier.base).memory;
      if (current) {
        const next = {
          ...current,
          type,
          summary,
          body,
          tags: input.tags !== void 0 ? tags : current.tags,
          priority: input.priority ?? current.priority,
          confidence: input.confidence ?? current.confidence,
          pinned: input.pinned ?? current.pinned,
          status: "active",
          source: { ...current.source, ...source, kind: current.source.kind, extra: current.source.extra }
        };
        if (renderMemory({ ...next, updated: current.updated }) === renderMemory(current)) {
          return { action: "unchanged", memory: current, file: existing.file, redacted };
        }
        next.updated = now;
        return commit(ctx, tier, next, "updated", redacted, input.autoLink);
      }
    }
  }
  const key = contentKeyOf({ type, summary, body });
  const duplicate = tier.index.findByContentKey(key);
  if (duplicate && duplicate.status !== "superseded") {
    const current = readMemoryById(paths, duplicate.id, tier.base).memory;
    if (current)
      return { action: "duplicate", memory: current, file: duplicate.file, redacted };
  }
  let id = buildId(summary, ctx.randomBytes);
  while (tier.index.docs.has(id))
    id = buildId(summary, ctx.randomBytes);
  const memory = {
    id,
    type,
    summary,
    scope,
    priority: input.priority ?? DEFAULT_REMEMBER.priority,
    confidence: input.confidence ?? DEFAULT_REMEMBER.confidence,
    pinned: input.pinned ?? false,
    status: "active",
    tags,
    ...input.topic !== void 0 ? { topic: input.topic.trim() } : {},
    created: now,
    updated: now,
    source,
    body,
    extra: {}
  };
  return commit(ctx, tier, memory, "created", redacted, input.autoLink);
}
async function commit(ctx, tier, memory, action, redacted, autoLink) {
  const { path: path3 } = writeMemory(tier.paths, memory);
  const st = statSync13(path3);
  tier.index.upsert(memory, { path: path3, id: memory.id, size: st.size, mtimeMs: st.mtimeMs }, renderMemory(memory), {
    base: tier.base,
    ...currentLinkExtractor() ? { links: currentLinkExtractor() } : {}
  });
  const file = tier.index.docs.get(memory.id)?.file ?? path3;
  if (autoLink === false)
    return { action, memory, file, redacted };
  let links;
  try {
    links = await autoLinkMemory(ctx, { tier, memory });
  } catch (err) {
    links = { edges: [], consolidate: [], compared: 0, error: err?.message ?? String(err) };
  }
  return { action, memory, file, redacted, links };
}
var DEFAULT_REMEMBER, MAX_SUMMARY;
var init_remember = __esm({
  "dist/api/remember.js"() {
    "use strict";
    init_errors();
    init_memory();
    init_memory_format();
    init_redact();
    init_keyword_index();
    init_lock();
    init_memory_store();
    init_autolink2();
    init_indexes();
    DEFAULT_REMEMBER = { type: "context", priority: 5, confidence: 1, scope: "project" };
    MAX_SUMMARY = 200;
  }
});

// dist/api/capture.js
var capture_exports = {};
__export(capture_exports, {
  DEFAULT_CAPTURE: () => DEFAULT_CAPTURE,
  MEMORY_CANDIDATE_KIND: () => MEMORY_CANDIDATE_KIND,
  candidateReviewId: () => candidateReviewId,
  candidateToRememberInput: () => candidateToRememberInput,
  captureTranscript: () => captureTranscript
});
import { closeSync as closeSync4, openSync as openSync4, readSync as readSync3, fstatSync } from "node:fs";
import { createHash as createHash5 } from "node:crypto";
import { join as join25, resolve as resolve8 } from "node:path";
function candidateReviewId(c) {
  return `candidate:${createHash5("sha1").update(`${c.type}
${c.summary.trim().toLowerCase()}`).digest("hex").slice(0, 10)}`;
}
function extractLockPath(ctx) {
  return join25(ctx.paths.cacheDir, "locks", "extract.lock");
}
function openTranscript(path3) {
  let fd;
  try {
    fd = openSync4(path3, "r");
  } catch (err) {
    return { problem: `cannot open the transcript ${path3}: ${err.code ?? err.message}` };
  }
  try {
    const stat2 = fstatSync(fd);
    if (!stat2.isFile()) {
      closeSync4(fd);
      return { problem: `the transcript ${path3} is not a regular file` };
    }
    return { fd, stat: stat2 };
  } catch (err) {
    closeSync4(fd);
    return { problem: `cannot stat the transcript ${path3}: ${err.message}` };
  }
}
function nextNewline(fd, from, size) {
  for (let at = from; at < size; at += 1024 * 1024) {
    const i = readAt(fd, at, Math.min(1024 * 1024, size - at)).indexOf(10);
    if (i !== -1)
      return at + i;
  }
  return void 0;
}
function readAt(fd, position, length) {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const n = readSync3(fd, buffer, filled, length - filled, position + filled);
    if (n === 0)
      break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}
function candidateToRememberInput(c, commit2) {
  return {
    summary: c.summary,
    body: c.body,
    type: c.type,
    confidence: c.confidence,
    tags: c.tags,
    ...c.topic !== void 0 ? { topic: c.topic } : {},
    // Plan and progress notes change every session: linking them would churn edge files.
    ...c.layer === "structural" ? { autoLink: false } : {},
    source: {
      kind: "extraction",
      layer: c.layer,
      session: c.session,
      ...c.branch !== void 0 ? { branch: c.branch } : {},
      ...commit2 !== void 0 ? { commit: commit2 } : {},
      ...c.files !== void 0 && c.files.length > 0 ? { files: c.files } : {}
    }
  };
}
function structuralHash(c, commit2) {
  const key = JSON.stringify([c.type, c.summary, c.body, c.confidence, c.tags, c.files ?? [], c.branch ?? "", commit2 ?? ""]);
  return createHash5("sha1").update(key).digest("hex").slice(0, 16);
}
function redactCandidate(c) {
  return { ...c, summary: redactSecrets(c.summary).text, body: redactSecrets(c.body).text };
}
async function captureTranscript(ctx, input) {
  const opts = { ...DEFAULT_CAPTURE, ...input };
  const started = Date.now();
  try {
    return await withLock(extractLockPath(ctx), () => captureLocked(ctx, opts, started), { timeoutMs: opts.lockTimeoutMs });
  } catch (err) {
    if (err instanceof LockError) {
      return { status: "locked", from: 0, to: 0, restarted: false, skippedLines: 0, memories: [], queued: 0 };
    }
    throw err;
  }
}
async function captureLocked(ctx, opts, started) {
  const cacheDir = ctx.paths.cacheDir;
  const session = opts.sessionId;
  const transcript = opts.transcriptPath ? resolve8(ctx.root, opts.transcriptPath) : void 0;
  let checkpoint = readCheckpoint(cacheDir, session);
  let restarted = false;
  let transcriptProblem;
  let opened;
  if (transcript !== void 0) {
    const o = openTranscript(transcript);
    if ("problem" in o)
      transcriptProblem = o.problem;
    else
      opened = o;
  }
  try {
    if (opened !== void 0 && transcript !== void 0) {
      const { stat: stat2 } = opened;
      if (checkpoint === void 0) {
        const other = findCheckpointByTranscript(cacheDir, transcript, stat2.ino);
        if (other !== void 0)
          checkpoint = { ...other, session };
      }
      if (checkpoint !== void 0 && (checkpoint.transcript !== transcript || checkpoint.ino !== stat2.ino || checkpoint.dev !== stat2.dev || stat2.size < checkpoint.offset)) {
        checkpoint = void 0;
        restarted = true;
      }
    }
    const head = readHeadFile(ctx.root) ?? await (await Promise.resolve().then(() => (init_head(), head_exports))).readHead(ctx.root);
    const branch = head.branch;
    const from = checkpoint?.offset ?? 0;
    let offset = from;
    let state = checkpoint?.state;
    let skippedLines = 0;
    let status2 = "done";
    const prose = [];
    const review = [];
    let structural = [];
    const now = ctx.now();
    const extractOptions = { sessionId: session, branch, now, threshold: ctx.config.extraction.threshold };
    const runChunk = (events, last) => {
      const result = extractMemories(events, { ...extractOptions, state, lastAssistantMessage: last });
      state = result.state;
      structural = result.memories.filter((c) => c.layer === "structural");
      prose.push(...result.memories.filter((c) => c.layer !== "structural"));
      review.push(...result.review);
    };
    let ran = false;
    if (opened !== void 0) {
      const size = opened.stat.size;
      let want = opts.chunkBytes;
      while (offset < size) {
        const bytes = readAt(opened.fd, offset, Math.min(want, size - offset));
        if (bytes.length === 0)
          break;
        const lastChunk = offset + bytes.length >= size;
        const parsed = parseTranscriptChunk(bytes, { startOffset: offset, file: transcript });
        if (parsed.consumedBytes === 0) {
          if (lastChunk)
            break;
          if (want >= opts.maxLineBytes) {
            const next = nextNewline(opened.fd, offset + want, size);
            if (next === void 0)
              break;
            offset = next + 1;
            skippedLines++;
            want = opts.chunkBytes;
            continue;
          }
          want *= 2;
          continue;
        }
        want = opts.chunkBytes;
        skippedLines += parsed.diagnostics.filter((d) => d.severity === "error").length;
        offset += parsed.consumedBytes;
        runChunk(parsed.events, lastChunk ? opts.lastAssistantMessage : void 0);
        ran = true;
        if (lastChunk)
          break;
        if (Date.now() - started > opts.timeBudgetMs) {
          status2 = "partial";
          break;
        }
      }
    }
    if (!ran)
      runChunk([], opts.lastAssistantMessage);
    const writtenBefore = restarted ? {} : checkpoint?.written ?? {};
    const writtenNow = { ...writtenBefore };
    const lastStructural = restarted ? void 0 : checkpoint?.structuralAt;
    const due = lastStructural === void 0 || now.getTime() - Date.parse(lastStructural) >= opts.structuralEveryMs || !(Date.parse(lastStructural) <= now.getTime());
    const changedStructural = due ? structural.filter((c) => c.topic === void 0 || writtenBefore[c.topic] !== structuralHash(c, head.commit)) : [];
    const structuralAt = changedStructural.length > 0 ? formatDate(now) : lastStructural;
    const toWrite = [...changedStructural, ...prose];
    const written = await writeCandidates(ctx, toWrite, head.commit);
    await applyBoosts(ctx, toWrite, written);
    for (const c of changedStructural)
      if (c.topic !== void 0)
        writtenNow[c.topic] = structuralHash(c, head.commit);
    const queued = await queueCandidates(ctx, review, written, head.commit);
    if (opened !== void 0 && transcript !== void 0) {
      const next = {
        version: CHECKPOINT_VERSION,
        session,
        transcript,
        offset,
        ino: opened.stat.ino,
        dev: opened.stat.dev,
        size: opened.stat.size,
        state,
        written: writtenNow,
        structuralAt,
        updated: formatDate(now)
      };
      writeCheckpoint(cacheDir, next);
    } else if (checkpoint !== void 0) {
      writeCheckpoint(cacheDir, { ...checkpoint, state, written: writtenNow, structuralAt, updated: formatDate(now) });
    }
    return {
      status: status2,
      from,
      to: offset,
      restarted,
      transcriptProblem,
      skippedLines,
      memories: written.map((r, i) => ({
        action: r.action,
        id: r.memory.id,
        type: r.memory.type,
        layer: toWrite[i]?.layer ?? "structural",
        summary: r.memory.summary
      })),
      queued
    };
  } finally {
    if (opened !== void 0)
      closeSync4(opened.fd);
  }
}
async function writeCandidates(ctx, candidates, commit2) {
  if (candidates.length === 0)
    return [];
  return rememberMany(ctx, candidates.map((c) => candidateToRememberInput(c, commit2)));
}
async function applyBoosts(ctx, candidates, written) {
  for (let i = 0; i < written.length; i++) {
    const c = candidates[i];
    const r = written[i];
    if (c === void 0 || r === void 0 || r.action !== "duplicate" || c.layer !== "keyword")
      continue;
    const m = r.memory;
    if (m.source.kind !== "extraction" || m.source.layer !== "keyword" || !(c.confidence > m.confidence))
      continue;
    const updated = await updateMemory(ctx, m.id, { confidence: c.confidence });
    written[i] = { ...r, action: updated.changed ? "updated" : r.action, memory: updated.memory };
  }
}
async function queueCandidates(ctx, review, written, commit2) {
  const queue = listReview(ctx.paths, { kind: MEMORY_CANDIDATE_KIND });
  const stored = new Set(written.map((r) => candidateReviewId(r.memory)));
  const promoted = queue.filter((e) => stored.has(e.id)).map((e) => e.id);
  if (promoted.length > 0)
    await removeReview(ctx.paths, promoted);
  const created = formatDate(ctx.now());
  const entries = review.map(redactCandidate).filter((c) => !stored.has(candidateReviewId(c))).map((c) => ({ kind: MEMORY_CANDIDATE_KIND, id: candidateReviewId(c), created, candidate: c, ...commit2 !== void 0 ? { commit: commit2.slice(0, 12) } : {} }));
  return appendReview(ctx.paths, entries);
}
var DEFAULT_CAPTURE, MEMORY_CANDIDATE_KIND;
var init_capture = __esm({
  "dist/api/capture.js"() {
    "use strict";
    init_extract();
    init_memory();
    init_redact();
    init_transcript();
    init_errors();
    init_head_file();
    init_checkpoint();
    init_lock();
    init_memories();
    init_remember();
    init_review_queue();
    DEFAULT_CAPTURE = {
      timeBudgetMs: 1e4,
      lockTimeoutMs: 250,
      chunkBytes: 4 * 1024 * 1024,
      structuralEveryMs: 0,
      maxLineBytes: 64 * 1024 * 1024
    };
    MEMORY_CANDIDATE_KIND = "candidate";
  }
});

// dist/core/anticipate.js
function termsOf2(c) {
  const files = (c.files ?? []).map((f) => f.split(/[\\/]/).pop() ?? f);
  return new Set(analyze([c.summary, ...c.tags ?? [], c.topic ?? "", ...files, c.preview ?? ""].join(" ")));
}
function sharedTerms(promptTerms, memory) {
  const out = [];
  for (const t of promptTerms) {
    if (memory.has(t))
      out.push(t);
    else if (t.length >= 4) {
      for (const m of memory) {
        if (m.length > t.length && m.startsWith(t)) {
          out.push(t);
          break;
        }
      }
    }
  }
  return out;
}
function selectAnticipated(prompt, candidates, options = {}) {
  const opts = { ...DEFAULT_ANTICIPATE, ...options };
  const exclude = new Set(options.exclude ?? []);
  const plan2 = planQuery(prompt);
  if (plan2.terms.length === 0 || candidates.length === 0)
    return [];
  const expansions = new Set(plan2.expansions);
  const best = Math.max(...candidates.map((c) => c.score));
  const out = [];
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  for (const c of ranked) {
    if (out.length >= opts.limit)
      break;
    if (exclude.has(c.id) || out.some((o) => o.id === c.id))
      continue;
    if (best > 0 && c.score < best * opts.minScoreShare)
      break;
    const terms = termsOf2(c);
    const shared = sharedTerms(plan2.terms, terms);
    const related = [...terms].filter((t) => expansions.has(t));
    const strong = shared.filter((t) => !WEAK_TERMS.has(t));
    const relevant = shared.length >= 2 ? strong.length >= 1 : strong.length === 1 && related.length >= 1;
    if (relevant)
      out.push({ ...c, shared, related });
  }
  return out;
}
function oneLine4(text3, max) {
  const flat = text3.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, "")}\u2026`;
}
function renderAnticipated(memories, options = {}) {
  const maxChars = options.maxChars ?? DEFAULT_ANTICIPATE.maxChars;
  if (memories.length === 0)
    return "";
  const header = "Stored project memories related to this prompt (Cortex):";
  let text3 = header;
  for (const m of memories) {
    const date = m.updated ? `, ${m.updated.slice(0, 10)}` : "";
    const detail = m.preview && m.preview.trim() !== "" ? `
  ${oneLine4(m.preview, 200)}` : "";
    const label2 = TYPE_LABELS[m.type] ?? m.type;
    const line = `
- ${label2}: ${oneLine4(m.summary, 240)} [${m.id}${date}]`;
    if (text3.length + line.length + detail.length <= maxChars)
      text3 += line + detail;
    else if (text3.length + line.length <= maxChars)
      text3 += line;
    else
      break;
  }
  return text3 === header ? "" : text3;
}
function docTerms(d) {
  const files = (d.files ?? []).map((f) => f.split(/[\\/]/).pop() ?? f);
  const preview = d.preview === void 0 ? "" : d.preview.slice(0, ANTICIPATION_PREVIEW_CHARS);
  const head = [...new Set(analyze([d.summary, ...d.tags ?? [], d.topic ?? "", ...files].join(" ")))];
  const inHead = new Set(head);
  return { head, body: [...new Set(analyze(preview))].filter((t) => !inHead.has(t)) };
}
function assemble(entries) {
  const byTerm = /* @__PURE__ */ new Map();
  const docs = [];
  const lengths = [];
  entries.forEach(({ doc, head, body }, i) => {
    const preview = doc.preview === void 0 ? void 0 : doc.preview.slice(0, ANTICIPATION_PREVIEW_CHARS);
    docs.push({ ...doc, score: 0, ...preview !== void 0 ? { preview } : {} });
    lengths.push(head.length, body.length);
    const add = (terms2, field) => {
      for (const t of terms2) {
        let docsOf = byTerm.get(t);
        if (docsOf === void 0)
          byTerm.set(t, docsOf = /* @__PURE__ */ new Map());
        if ((docsOf.get(i) ?? -1) < field)
          docsOf.set(i, field);
      }
    };
    add(head, 1);
    add(body, 0);
  });
  const terms = [...byTerm.keys()].sort();
  const postings = terms.map((t) => [...byTerm.get(t)].flat());
  return { version: ANTICIPATION_INDEX_VERSION, docs, terms, postings, lengths };
}
function buildAnticipationIndex(docs) {
  return assemble(docs.map((doc) => ({ doc, ...docTerms(doc) })));
}
function updateAnticipationIndex(index, change) {
  const add = change.add ?? [];
  const drop = new Set(change.remove ?? []);
  for (const d of add)
    drop.add(d.id);
  const head = index.docs.map(() => []);
  const body = index.docs.map(() => []);
  index.terms.forEach((term, t) => {
    const list2 = index.postings[t] ?? [];
    for (let j = 0; j < list2.length; j += 2) {
      const doc = list2[j];
      (list2[j + 1] === 1 ? head : body)[doc]?.push(term);
    }
  });
  const entries = [];
  index.docs.forEach((doc, i) => {
    if (!drop.has(doc.id))
      entries.push({ doc, head: head[i] ?? [], body: body[i] ?? [] });
  });
  for (const doc of add)
    entries.push({ doc, ...docTerms(doc) });
  entries.sort((a, b) => a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0);
  return assemble(entries);
}
function lowerBound(sorted, key) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (sorted[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
function searchAnticipationIndex(index, prompt, options = {}) {
  const limit = options.limit ?? 20;
  const plan2 = planQuery(prompt);
  const n = index.docs.length;
  if (plan2.terms.length === 0 || n === 0)
    return [];
  const scores = /* @__PURE__ */ new Map();
  let head = 0;
  let body = 0;
  for (let d = 0; d < n; d++) {
    head += index.lengths[2 * d] ?? 0;
    body += index.lengths[2 * d + 1] ?? 0;
  }
  const avg = [Math.max(1, body / n), Math.max(1, head / n)];
  const credit = (termIndex, weight, seen) => {
    const list2 = index.postings[termIndex] ?? [];
    const df = list2.length / 2;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = 0; j < list2.length; j += 2) {
      const doc = list2[j];
      if (seen.has(doc))
        continue;
      seen.add(doc);
      const field = list2[j + 1];
      const length = index.lengths[2 * doc + (field === 1 ? 0 : 1)] ?? 0;
      const norm = (BM252.k1 + 1) / (1 + BM252.k1 * (1 - BM252.b + BM252.b * length / avg[field]));
      scores.set(doc, (scores.get(doc) ?? 0) + idf * weight * FIELD_BOOST[field] * norm);
    }
  };
  for (const term of plan2.terms) {
    const seen = /* @__PURE__ */ new Set();
    const at = lowerBound(index.terms, term);
    if (index.terms[at] === term)
      credit(at, MATCH_WEIGHT.exact, seen);
    if (term.length >= 4) {
      let end = at;
      while (end < index.terms.length && index.terms[end].startsWith(term))
        end++;
      if (end - at <= MAX_PREFIX_TERMS) {
        for (let k = at; k < end; k++)
          if (index.terms[k] !== term)
            credit(k, MATCH_WEIGHT.prefix, seen);
      }
    }
  }
  for (const term of plan2.expansions) {
    const at = lowerBound(index.terms, term);
    if (index.terms[at] === term)
      credit(at, MATCH_WEIGHT.expansion, /* @__PURE__ */ new Set());
  }
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit).map(([doc, score]) => ({ ...index.docs[doc], score }));
}
var DEFAULT_ANTICIPATE, WEAK_TERMS, TYPE_LABELS, ANTICIPATION_INDEX_VERSION, ANTICIPATION_PREVIEW_CHARS, MATCH_WEIGHT, FIELD_BOOST, BM252, MAX_PREFIX_TERMS;
var init_anticipate = __esm({
  "dist/core/anticipate.js"() {
    "use strict";
    init_query();
    init_text();
    DEFAULT_ANTICIPATE = {
      limit: 3,
      maxChars: 1500,
      minScoreShare: 0.2
    };
    WEAK_TERMS = new Set(analyze("add added adding change changes changed check code continue do done file files fix fixed get go help implement look make need new now ok okay please run set show start stop sure task test tests thing things try update use want work works yes next first last good great thanks thank let see write read"));
    TYPE_LABELS = {
      rejected: "rejected approach",
      code_description: "code description"
    };
    ANTICIPATION_INDEX_VERSION = 3;
    ANTICIPATION_PREVIEW_CHARS = 200;
    MATCH_WEIGHT = { exact: 1, prefix: 0.8, expansion: 0.3 };
    FIELD_BOOST = [1, 3];
    BM252 = { k1: 1.2, b: 0.75 };
    MAX_PREFIX_TERMS = 50;
  }
});

// dist/search/anticipation-cache.js
import { readFileSync as readFileSync19, statSync as statSync14 } from "node:fs";
import { join as join26 } from "node:path";
function anticipationPath(paths) {
  return join26(paths.cacheDir, "anticipation.json");
}
function directoryStamp(dir, now) {
  const st = statSync14(dir, { throwIfNoEntry: false, bigint: true });
  if (st === void 0)
    return void 0;
  const coarse = st.mtimeNs % 1000000000n === 0n && now - Number(st.mtimeMs) < 2e3;
  return coarse ? "" : `${st.mtimeNs}:${st.ino}:${st.size}`;
}
function loadFile(paths) {
  try {
    const file = JSON.parse(readFileSync19(anticipationPath(paths), "utf8"));
    const index = file.index;
    if (file.version !== ANTICIPATION_INDEX_VERSION || typeof file.stamp !== "string" || typeof file.files !== "object" || file.files === null)
      return void 0;
    if (index?.version !== ANTICIPATION_INDEX_VERSION || !Array.isArray(index.docs) || !Array.isArray(index.terms) || !Array.isArray(index.postings) || !Array.isArray(index.lengths))
      return void 0;
    if (index.terms.length !== index.postings.length || index.lengths.length !== 2 * index.docs.length)
      return void 0;
    return file;
  } catch {
    return void 0;
  }
}
function openAnticipationIndex(paths, options) {
  const now = options.now ?? Date.now();
  const stamp = directoryStamp(paths.memoriesDir, now);
  const stored = loadFile(paths);
  if (stored !== void 0 && stamp !== void 0 && stamp !== "" && stored.stamp === stamp)
    return stored.index;
  const entries = listMemoryFiles(paths);
  const files = {};
  const add = [];
  const remove = [];
  const seen = /* @__PURE__ */ new Set();
  for (const entry of entries) {
    const name = `${entry.id}.md`;
    seen.add(name);
    const known = stored?.files[name];
    if (known !== void 0 && known[0] === entry.size && known[1] === entry.mtimeMs) {
      files[name] = known;
      continue;
    }
    const { memory } = readMemoryFile(entry, displayPath(entry.path, options.base));
    const indexed = memory !== void 0 && memory.id === entry.id && options.include(memory);
    if (indexed)
      add.push(options.toDoc(memory));
    else if (known?.[2] === 1)
      remove.push(entry.id);
    files[name] = [entry.size, entry.mtimeMs, indexed ? 1 : 0];
  }
  for (const [name, known] of Object.entries(stored?.files ?? {})) {
    if (!seen.has(name) && known[2] === 1)
      remove.push(name.slice(0, -3));
  }
  const unchanged = stored !== void 0 && add.length === 0 && remove.length === 0 && Object.keys(files).length === Object.keys(stored.files).length;
  const index = stored === void 0 ? buildAnticipationIndex(add.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) : unchanged ? stored.index : updateAnticipationIndex(stored.index, { remove, add });
  if (!unchanged || stored?.stamp !== (stamp ?? "")) {
    try {
      writeFileAtomic(anticipationPath(paths), JSON.stringify({ version: ANTICIPATION_INDEX_VERSION, stamp: stamp ?? "", files, index }));
    } catch {
    }
  }
  return index;
}
var init_anticipation_cache = __esm({
  "dist/search/anticipation-cache.js"() {
    "use strict";
    init_anticipate();
    init_atomic();
    init_memory_store();
  }
});

// dist/api/anticipate.js
var anticipate_exports = {};
__export(anticipate_exports, {
  ANTICIPATED_TYPES: () => ANTICIPATED_TYPES,
  GLOBAL_ANTICIPATION_FACTOR: () => GLOBAL_ANTICIPATION_FACTOR,
  MAX_PROMPT_CHARS: () => MAX_PROMPT_CHARS,
  anticipate: () => anticipate,
  tierAnticipationIndex: () => tierAnticipationIndex
});
import { existsSync as existsSync14 } from "node:fs";
function toDoc2(m) {
  return {
    id: m.id,
    type: m.type,
    summary: m.summary,
    score: 0,
    tags: m.tags,
    ...m.topic !== void 0 ? { topic: m.topic } : {},
    ...m.source.files !== void 0 && m.source.files.length > 0 ? { files: m.source.files } : {},
    preview: m.body.slice(0, ANTICIPATION_PREVIEW_CHARS),
    updated: m.updated
  };
}
function tierAnticipationIndex(ctx, scope) {
  const paths = scope === "project" ? ctx.paths : ctx.global;
  return openAnticipationIndex(paths, {
    base: scope === "project" ? ctx.root : ctx.global.cortexDir,
    include: (m) => m.status === "active" && ANTICIPATED_TYPES.includes(m.type),
    toDoc: toDoc2,
    now: ctx.now().getTime()
  });
}
async function anticipate(ctx, input) {
  const prompt = input.prompt.slice(0, MAX_PROMPT_CHARS);
  if (prompt.trim() === "")
    return { text: "", memories: [] };
  const limit = input.limit ?? DEFAULT_ANTICIPATE.limit;
  const exclude = input.exclude ?? [];
  const wanted = Math.min(200, Math.max(20, limit * 6) + exclude.length);
  const scopes = ["project", ...ctx.includeGlobal && existsSync14(ctx.global.memoriesDir) ? ["global"] : []];
  const candidates = [];
  for (const scope of scopes) {
    const factor = scope === "global" ? GLOBAL_ANTICIPATION_FACTOR : 1;
    for (const c of searchAnticipationIndex(tierAnticipationIndex(ctx, scope), prompt, { limit: wanted })) {
      if (!candidates.some((x) => x.id === c.id))
        candidates.push({ ...c, score: c.score * factor });
    }
  }
  const memories = selectAnticipated(prompt, candidates, { limit, exclude, ...input.maxChars !== void 0 ? { maxChars: input.maxChars } : {} });
  const text3 = renderAnticipated(memories, input.maxChars !== void 0 ? { maxChars: input.maxChars } : {});
  return { text: text3, memories };
}
var ANTICIPATED_TYPES, GLOBAL_ANTICIPATION_FACTOR, MAX_PROMPT_CHARS;
var init_anticipate2 = __esm({
  "dist/api/anticipate.js"() {
    "use strict";
    init_anticipate();
    init_memory();
    init_anticipation_cache();
    ANTICIPATED_TYPES = MEMORY_TYPES.filter((t) => t !== "plan" && t !== "progress" && t !== "code");
    GLOBAL_ANTICIPATION_FACTOR = 0.9;
    MAX_PROMPT_CHARS = 2e3;
  }
});

// dist/api/review.js
var review_exports = {};
__export(review_exports, {
  ACCEPTED_CONFIDENCE: () => ACCEPTED_CONFIDENCE,
  acceptReview: () => acceptReview,
  listReview: () => listReview2,
  rejectReview: () => rejectReview
});
function isMemoryCandidate(e) {
  const c = e.candidate;
  return e.kind === MEMORY_CANDIDATE_KIND && typeof c === "object" && c !== null && typeof c.summary === "string" && typeof c.type === "string";
}
function toItem(e, n) {
  if (isMemoryCandidate(e)) {
    const c = e.candidate;
    return { n, id: e.id, kind: e.kind, created: e.created, summary: c.summary, type: c.type, confidence: c.confidence, layer: c.layer, session: c.session, branch: c.branch, body: c.body };
  }
  const text3 = [e.summary, e.description, e.reason].find((v) => typeof v === "string");
  return { n, id: e.id, kind: e.kind, created: e.created, summary: text3 ?? `${e.kind} ${e.id}` };
}
function reviewable(ctx) {
  return listReview(ctx.paths, { kind: MEMORY_CANDIDATE_KIND });
}
function listReview2(ctx) {
  return { items: reviewable(ctx).map((e, i) => toItem(e, i + 1)), consolidate: listReview(ctx.paths, { kind: "consolidate" }).length };
}
function select(entries, selectors) {
  if (selectors === "all")
    return entries;
  const out = [];
  for (const s of selectors) {
    const n = /^\d+$/.test(s) ? Number(s) : void 0;
    const entry = n !== void 0 ? entries[n - 1] : entries.find((e) => e.id === s);
    if (entry === void 0) {
      throw new UsageError(`No review entry ${JSON.stringify(s)}: the queue has ${entries.length} ${entries.length === 1 ? "entry" : "entries"}.`, {
        hint: "Run `cortex review` for the numbered list."
      });
    }
    if (!out.includes(entry))
      out.push(entry);
  }
  return out;
}
async function acceptReview(ctx, input) {
  const entries = reviewable(ctx);
  const chosen = select(entries, input.select);
  const items = new Map(entries.map((e, i) => [e, toItem(e, i + 1)]));
  const memories = chosen.filter(isMemoryCandidate);
  const skipped = chosen.filter((e) => !isMemoryCandidate(e)).map((e) => items.get(e));
  if (input.select !== "all" && skipped.length > 0) {
    throw new UsageError(`Review entry ${skipped[0]?.n} is a "${skipped[0]?.kind}" entry, which cortex review cannot accept.`, {
      hint: "Only extracted memory candidates can be accepted here."
    });
  }
  const results = await rememberMany(ctx, memories.map((e) => {
    const base = candidateToRememberInput(e.candidate, e.commit);
    return { ...base, confidence: Math.max(ACCEPTED_CONFIDENCE, e.candidate.confidence) };
  }));
  await removeReview(ctx.paths, memories.map((e) => e.id));
  return { accepted: memories.map((e, i) => ({ item: items.get(e), result: results[i] })), skipped };
}
async function rejectReview(ctx, input) {
  const entries = reviewable(ctx);
  const chosen = select(entries, input.select);
  const items = new Map(entries.map((e, i) => [e, toItem(e, i + 1)]));
  await removeReview(ctx.paths, chosen.map((e) => e.id));
  return { rejected: chosen.map((e) => items.get(e)) };
}
var ACCEPTED_CONFIDENCE;
var init_review = __esm({
  "dist/api/review.js"() {
    "use strict";
    init_errors();
    init_capture();
    init_remember();
    init_review_queue();
    ACCEPTED_CONFIDENCE = 0.9;
  }
});

// dist/api/status.js
import { existsSync as existsSync15, statSync as statSync15 } from "node:fs";
function status(ctx) {
  const tiers = openIndexes(ctx);
  const out = tiers.map((tier) => {
    const byType = {};
    const byStatus = {};
    for (const doc of tier.index.docs.values()) {
      byType[doc.type] = (byType[doc.type] ?? 0) + 1;
      byStatus[doc.status] = (byStatus[doc.status] ?? 0) + 1;
    }
    const file = KeywordIndex.indexPath(tier.paths);
    const exists2 = existsSync15(file);
    const broken = new Set(tier.report.diagnostics.filter((d) => d.severity === "error").map((d) => d.file));
    return {
      scope: tier.scope,
      dir: tier.paths.cortexDir,
      total: tier.index.size,
      byType,
      byStatus,
      index: { file, exists: exists2, bytes: exists2 ? statSync15(file).size : 0, rebuilt: tier.index.rebuilt, brokenFiles: broken.size }
    };
  });
  return { root: ctx.root, tiers: out, diagnostics: [...ctx.configDiagnostics, ...tiers.flatMap((t) => t.report.diagnostics)] };
}
var init_status2 = __esm({
  "dist/api/status.js"() {
    "use strict";
    init_keyword_index();
    init_indexes();
  }
});

// dist/api/cortex.js
var cortex_exports = {};
__export(cortex_exports, {
  openCortex: () => openCortex
});
function openCortex(options = {}) {
  const ctx = openContext(options);
  return {
    context: ctx,
    remember: (input) => remember(ctx, input),
    recall: (input) => recall(ctx, input),
    get: (id) => {
      const got = getMemory(ctx, id);
      recordAccess(ctx, [{ id: got.memory.id, scope: got.scope }]);
      return got;
    },
    list: (input) => listMemories(ctx, input),
    update: (id, input) => updateMemory(ctx, id, input),
    forget: (input) => forget(ctx, input),
    lint: async () => {
      await Promise.resolve().then(() => (init_graph_lint(), graph_lint_exports));
      return lint(ctx);
    },
    status: () => status(ctx),
    link: (input) => link(ctx, input),
    unlink: (input) => unlink2(ctx, input),
    traverse: (input) => traverseMemories(ctx, input),
    graph: (options2) => openGraph(ctx, options2),
    // Imported on demand, so that recall, remember and the hooks do not load the markdown
    // toolchain (the briefing), the consolidation code or the vector code.
    consolidate: {
      list: async () => (await Promise.resolve().then(() => (init_consolidate(), consolidate_exports))).listConsolidation(ctx),
      accept: async (input) => (await Promise.resolve().then(() => (init_consolidate(), consolidate_exports))).acceptSuggested(ctx, input),
      reject: async (input) => (await Promise.resolve().then(() => (init_consolidate(), consolidate_exports))).rejectSuggested(ctx, input),
      merge: async (input) => (await Promise.resolve().then(() => (init_consolidate(), consolidate_exports))).mergeMemories(ctx, input)
    },
    embed: async (input) => (await Promise.resolve().then(() => (init_embed(), embed_exports))).embedIndex(ctx, input),
    surface: async (input) => (await Promise.resolve().then(() => (init_surface2(), surface_exports))).surface(ctx, input),
    lifecycle: async (input) => (await Promise.resolve().then(() => (init_lifecycle2(), lifecycle_exports))).lifecycle(ctx, input),
    // Imported on demand, like embed: transcript parsing and extraction are large modules.
    capture: async (input) => (await Promise.resolve().then(() => (init_capture(), capture_exports))).captureTranscript(ctx, input),
    anticipate: async (input) => (await Promise.resolve().then(() => (init_anticipate2(), anticipate_exports))).anticipate(ctx, input),
    review: {
      list: async () => (await Promise.resolve().then(() => (init_review(), review_exports))).listReview(ctx),
      accept: async (select2) => (await Promise.resolve().then(() => (init_review(), review_exports))).acceptReview(ctx, { select: select2 }),
      reject: async (select2) => (await Promise.resolve().then(() => (init_review(), review_exports))).rejectReview(ctx, { select: select2 })
    }
  };
}
var init_cortex = __esm({
  "dist/api/cortex.js"() {
    "use strict";
    init_context();
    init_graph2();
    init_lint();
    init_memories();
    init_recall();
    init_remember();
    init_signals2();
    init_status2();
  }
});

// dist/term/args.js
init_errors();
import { parseArgs } from "node:util";
var GLOBAL_OPTIONS = {
  json: { type: "boolean", description: "Print one JSON document (with schemaVersion) on stdout." },
  dir: { type: "string", short: "C", value: "<path>", description: "Run in this project directory instead of the current one." },
  quiet: { type: "boolean", short: "q", description: "Print nothing on stderr but errors." },
  help: { type: "boolean", short: "h", description: "Show this help." }
};
function parseInvocation(def, argv, cwd) {
  const options = { ...GLOBAL_OPTIONS, ...def.options };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.entries(options).map(([name, o]) => [
        name,
        { type: o.type, ...o.short ? { short: o.short } : {}, ...o.multiple ? { multiple: true } : {} }
      ])),
      allowPositionals: true,
      strict: true
    });
  } catch (err) {
    const message = err.message.replace(/\. To specify a positional argument.*$/s, "").replace(/^Unknown option/, "unknown option");
    throw new UsageError(`cortex ${def.name}: ${message}.`, { hint: `Run \`cortex ${def.name} --help\` for the options.` });
  }
  const values = parsed.values;
  return {
    values,
    positionals: parsed.positionals,
    json: values.json === true,
    quiet: values.quiet === true,
    dir: typeof values.dir === "string" ? values.dir : cwd,
    help: values.help === true
  };
}
function commandHelp(def, paint) {
  const lines = [];
  lines.push(`${paint.bold(`cortex ${def.name}`)} \u2014 ${def.summary}`, "");
  lines.push(paint.bold("Usage:"));
  for (const u of def.usage)
    lines.push(`  cortex ${u}`);
  if (def.description)
    lines.push("", ...def.description.split("\n").map((l) => l === "" ? "" : `  ${l}`));
  const opt = (name, o) => {
    const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${o.type === "string" ? ` ${o.value ?? "<value>"}` : ""}`;
    return [flag, `${o.description}${o.multiple ? " (repeatable)" : ""}`];
  };
  const own = Object.entries(def.options).map(([n, o]) => opt(n, o));
  const global = Object.entries(GLOBAL_OPTIONS).map(([n, o]) => opt(n, o));
  const width = Math.max(...[...own, ...global].map(([f]) => f.length)) + 2;
  if (own.length > 0) {
    lines.push("", paint.bold("Options:"));
    for (const [f, d] of own)
      lines.push(`  ${f.padEnd(width)}${d}`);
  }
  lines.push("", paint.bold("Global options:"));
  for (const [f, d] of global)
    lines.push(`  ${f.padEnd(width)}${d}`);
  if (def.examples && def.examples.length > 0) {
    lines.push("", paint.bold("Examples:"));
    for (const e of def.examples)
      lines.push(`  ${e}`);
  }
  lines.push("", paint.bold("Exit codes:"), "  0 success, 1 failure, 2 usage error");
  for (const e of def.exitCodes ?? [])
    lines.push(`  ${e}`);
  return `${lines.join("\n")}
`;
}
function str(inv, name) {
  const v = inv.values[name];
  return typeof v === "string" ? v : void 0;
}
function list(inv, name) {
  const v = inv.values[name];
  if (v === void 0)
    return void 0;
  const arr = Array.isArray(v) ? v : [String(v)];
  return arr.flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean);
}
function bool(inv, name) {
  return inv.values[name] === true;
}
function int(inv, name, range) {
  const v = str(inv, name);
  if (v === void 0)
    return void 0;
  const n = Number(v);
  if (!Number.isInteger(n) || range && (n < range[0] || n > range[1])) {
    throw new UsageError(`--${name} must be an integer${range ? ` from ${range[0]} to ${range[1]}` : ""}, got "${v}".`);
  }
  return n;
}
function num(inv, name, range) {
  const v = str(inv, name);
  if (v === void 0)
    return void 0;
  const n = Number(v);
  if (!Number.isFinite(n) || range && (n < range[0] || n > range[1])) {
    throw new UsageError(`--${name} must be a number${range ? ` from ${range[0]} to ${range[1]}` : ""}, got "${v}".`);
  }
  return n;
}

// dist/term/output.js
var SCHEMA_VERSION = 1;
function jsonDocument(data) {
  return `${JSON.stringify({ schemaVersion: SCHEMA_VERSION, ...data }, null, 2)}
`;
}
function formatDiagnostic(d, paint) {
  const where = `${d.file}${d.line !== void 0 ? `:${d.line}` : ""}${d.line !== void 0 && d.column !== void 0 ? `:${d.column}` : ""}`;
  const sev = d.severity === "error" ? paint?.red("error") ?? "error" : paint?.yellow("warning") ?? "warning";
  const main = `${where}: ${sev}: ${d.reason} [${d.ruleId}]`;
  return d.hint ? `${main}
  hint: ${d.hint}` : main;
}
function formatSkipWarning(d) {
  return `warning: skipped ${d.file}${d.line !== void 0 ? `:${d.line}` : ""}: ${d.reason} (run \`cortex lint\` for details)`;
}
function columns(rows, widths) {
  const w = widths ?? rows.reduce((acc, row) => row.map((cell, i) => Math.max(acc[i] ?? 0, visibleLength(cell))), []);
  return rows.map((row) => row.map((cell, i) => i === row.length - 1 ? cell : cell + " ".repeat(Math.max(0, (w[i] ?? 0) - visibleLength(cell)))).join("  "));
}
function visibleLength(s) {
  return s.replace(/\u001b\[[0-9;]*m/g, "").length;
}

// dist/commands/shared.js
init_context();
async function open2(inv, io) {
  const { openCortex: openCortex2 } = await Promise.resolve().then(() => (init_cortex(), cortex_exports));
  return openCortex2({ dir: inv.dir, env: io.env });
}
function openContextOf(inv, io) {
  return openContext({ dir: inv.dir, env: io.env });
}
function warnDiagnostics(io, diagnostics) {
  const seen = /* @__PURE__ */ new Set();
  for (const d of diagnostics) {
    if (d.severity !== "error")
      continue;
    const key = `${d.file}:${d.line}:${d.reason}`;
    if (seen.has(key))
      continue;
    seen.add(key);
    io.err(`${formatSkipWarning(d)}
`);
  }
}
function printJson(io, data) {
  io.out(jsonDocument(data));
}
function formatResultLine(r, io, index) {
  const p = io.paint;
  const num2 = index === void 0 ? "" : `${String(index + 1).padStart(2)}. `;
  const extra = [r.status !== "active" ? r.status : "", r.scope === "global" ? "global" : ""].filter(Boolean).join(", ");
  return `${num2}${p.cyan(r.id)}  ${p.dim(`[${r.type}]`)}  ${r.summary}${extra ? p.dim(` (${extra})`) : ""}`;
}

// dist/commands/recall.js
init_memory();
init_recall();
init_errors();
function statusesOf(values) {
  if (!values)
    return void 0;
  return values.includes("all") ? [...MEMORY_STATUSES] : values;
}
var command = {
  name: "recall",
  summary: "Find the memories relevant to a query",
  usage: ["recall <query> [--type <t>] [--tag <tag>] [--limit <n>] [--mode keyword|semantic|hybrid]"],
  description: 'Keyword search (BM25 with stemming, prefix and fuzzy matching; summary > tags > body) over the\nproject memories and the global ones ($CORTEX_HOME). A small thesaurus of coding terms connects\nwords such as "database" and "SQLite". Only active memories are searched unless --status says\notherwise. Files that cannot be read are skipped with one warning each on stderr.\n\nOnce `cortex index --embed` has computed embedding vectors, recall is hybrid by default: the\nkeyword ranking fused with cosine similarity of local embeddings (reciprocal rank fusion), so a\nparaphrase finds a memory that shares no word with it. Memories added since are embedded on the\nfly (up to 64). Without a usable model, recall stays keyword-only and prints one notice line on\nstderr naming the cause and the fix; it never fails for that.',
  options: {
    type: { type: "string", short: "t", value: "<type>", multiple: true, description: "Only these types (comma-separated or repeated)." },
    tag: { type: "string", value: "<tag>", multiple: true, description: "Only memories with all these tags." },
    status: { type: "string", value: "<status>", multiple: true, description: "active (default), archived, superseded or all." },
    scope: { type: "string", value: "<scope>", description: "project or global (default both)." },
    since: { type: "string", value: "<when>", description: "Only memories updated since an ISO date or an age (7d, 2w, 12h)." },
    limit: { type: "string", short: "n", value: "<n>", description: "At most n results (default 10)." },
    branch: { type: "string", short: "b", value: "<branch>", description: "Search that branch's memories, read from git (no checkout)." },
    "all-branches": { type: "boolean", description: "Search the work tree and every other local branch; marks what is not merged." },
    "no-enrich": { type: "boolean", description: "Do not add linked code and graph neighbours to the results." },
    mode: {
      type: "string",
      short: "m",
      value: "<mode>",
      description: "keyword, semantic or hybrid (default: hybrid when `cortex index --embed` has run, else keyword)."
    }
  },
  examples: [
    'cortex recall "which database did we pick"',
    'cortex recall auth --type decision,rejected --json | jq ".results[].id"',
    'cortex recall "what storage engine did we settle on" --mode hybrid'
  ],
  async run(inv, io) {
    const mode = str(inv, "mode");
    if (mode !== void 0 && !RECALL_MODES.includes(mode)) {
      throw new UsageError(`--mode must be one of ${RECALL_MODES.join(", ")}, got "${mode}".`);
    }
    const ctx = openContextOf(inv, io);
    const query = inv.positionals.join(" ");
    const out = await recall(ctx, {
      query,
      ...list(inv, "type") ? { types: list(inv, "type") } : {},
      ...list(inv, "tag") ? { tags: list(inv, "tag") } : {},
      ...statusesOf(list(inv, "status")) ? { statuses: statusesOf(list(inv, "status")) } : {},
      ...str(inv, "scope") ? { scope: str(inv, "scope") } : {},
      ...str(inv, "since") ? { since: str(inv, "since") } : {},
      ...int(inv, "limit", [1, 1e3]) !== void 0 ? { limit: int(inv, "limit", [1, 1e3]) } : {},
      ...str(inv, "branch") ? { branch: str(inv, "branch") } : {},
      ...inv.values["all-branches"] === true ? { allBranches: true } : {},
      ...bool(inv, "no-enrich") ? { enrich: false } : {},
      ...mode !== void 0 ? { mode } : {}
    });
    warnDiagnostics(io, out.diagnostics);
    if (out.notice)
      io.err(`notice: ${out.notice}
`);
    if (inv.json) {
      printJson(io, { query: out.query, mode: out.mode, ...out.notice ? { notice: out.notice } : {}, results: out.results });
      return 0;
    }
    if (out.results.length === 0) {
      io.err(`No memories match "${out.query}".
`);
      return 0;
    }
    const where = (r) => r.ref ? io.paint.dim(` (on ${r.ref.branch}${r.ref.merged ? "" : ", not merged"})`) : "";
    out.results.forEach((r, i) => io.out(`${formatResultLine(r, io, i)}${where(r)}
${formatEnrichment(r, io)}`));
    return 0;
  }
};
function formatEnrichment(r, io) {
  const p = io.paint;
  let text3 = "";
  for (const c of r.code ?? [])
    text3 += `      ${p.dim("code")} ${p.cyan(c.id)}  ${c.summary}
`;
  for (const n of r.related ?? []) {
    const arrow = n.direction === "out" ? "\u2192" : "\u2190";
    const indent = n.depth > 1 ? "        " : "      ";
    text3 += `${indent}${p.dim(`${arrow} ${n.relation}`)} ${p.cyan(n.id)}  ${n.summary}${n.depth > 1 ? p.dim(`  (via ${n.from})`) : ""}
`;
  }
  return text3;
}
var recall_default = command;

// .esb/imports.mjs
init_errors();
init_memory();
init_recall();
init_enrich();
init_embed_settings();
init_indexes();
init_signals2();
init_context();
init_graph();
init_graph2();
init_embedder();
init_vector_header();
init_wikilinks();
init_keyword_index();
init_signals();
init_lazy();
init_surface_cache();
init_config();
init_paths();
init_edge();
init_edge_store();
init_lock();
init_memory_store();
init_graph_view();
init_atomic();
init_doc_table();
init_memory_format();
init_query();
init_text();
init_packed_search();
init_search_state();
init_edge_format();
init_edge_cache();
init_graph_cache();
init_fast_frontmatter();
import "minisearch";
import "stemmer";

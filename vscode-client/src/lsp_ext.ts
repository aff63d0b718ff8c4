/**
 * The codegraph custom LSP methods, typed. Mirrors the one declaration of the protocol,
 * `server/codegraph/model/protocol.json` (documented in `docs/protocol.md`): every interface,
 * field, limit in a field's comment and language here is checked against it by
 * `tests/test_protocol.py`. Field names are camelCase on the wire; optional fields have
 * server-side defaults.
 */
import * as lc from "vscode-languageclient";

/** Languages the server indexes (VS Code language ids); open documents of these are synced. */
export const LANGUAGES = ["python", "typescript", "typescriptreact", "javascript", "javascriptreact", "java", "kotlin", "go", "rust"];

// ---- codegraph/status --------------------------------------------------------------------

export interface StatusParams {
    rootUri?: string;
}

export interface SkippedFile {
    path: string;
    reason: string;
}

export interface RootStatus {
    rootUri: string;
    files: number;
    symbols: number;
    resolvedEdges: number;
    unresolvedCalls: number;
    languages: Record<string, number>;
    /** First 50 skipped files. */
    skipped: SkippedFile[];
    /** All skipped files. */
    skippedTotal: number;
    lastUpdateMs: number;
    /** Why this workspace folder has no index (not a local directory, or its first index failed); absent otherwise. */
    error?: string;
}

/** The first index's build, while `ready` is false. */
export interface StatusProgress {
    done: number;
    total: number;
    message: string;
}

export interface StatusResult {
    indexVersion: number;
    ready: boolean;
    roots: RootStatus[];
    progress?: StatusProgress;
}

export const status = new lc.RequestType<StatusParams, StatusResult, void>("codegraph/status");

// ---- codegraph/explore -------------------------------------------------------------------

export interface ExploreParams {
    /** 1–4,000 characters, not blank. */
    query: string;
    /** 1,000–400,000; default by repository size (13,000 / 18,000 / 24,000). */
    maxOutputChars?: number;
    /** Default true; false = plain relevance rendering. */
    adaptive?: boolean;
    /** Default false: test files are excluded at every tier. */
    includeTests?: boolean;
    /** A workspace folder; default the only / first one. */
    rootUri?: string;
}

export interface FlowHop {
    symbol: string;
    path: string;
    line: number;
}

/** One call (or reference) of the flow: `how` is "resolved", "nested" or the likely rule's name. */
export interface FlowStep {
    from: string;
    to: string;
    path: string;
    line: number;
    how: string;
    core: boolean;
}

export type FileMode = "full" | "focused" | "skeleton" | "clusters";

/** Text lines `textLine` … `textLine + end - start` of the answer show source lines `start` … `end`. */
export interface ShownRange {
    textLine: number;
    start: number;
    end: number;
}

/** A `path:line` written on text line `textLine` of the answer (a hop's call site, the entry, a candidate). */
export interface TextRef {
    textLine: number;
    path: string;
    line: number;
}

export interface ExploreFile {
    path: string;
    mode: FileMode;
    reason: string;
    chars: number;
    symbols: string[];
    /** 0-based line of the file's `#### path …` header in `text`. */
    textLine: number | null;
    /** The source lines the section shows, and where. */
    ranges: ShownRange[];
}

export interface ExploreStats {
    chars: number;
    budget: number;
    candidates: number;
    skeletonized: number;
    dropped: number;
    elapsedMs: number;
    indexVersion: number;
    adaptive: boolean;
    /** The ranking's own estimate (0–1) of the share of the needed code the answer shows in full. */
    expectedRecall: number;
}

export interface ExploreResult {
    /** Markdown: `## Flow`, then one `#### path — symbols · mode` section per file. */
    text: string;
    flow: FlowHop[];
    hops: FlowStep[];
    files: ExploreFile[];
    stats: ExploreStats;
    /** Every `path:line` outside the code sections (text positions are 0-based lines of `text`). */
    refs: TextRef[];
}

export const explore = new lc.RequestType<ExploreParams, ExploreResult, void>("codegraph/explore");

// ---- codegraph/distill -------------------------------------------------------------------

export interface Obligation {
    id: string;
    required: boolean;
    evidence: unknown;
    /** Each selector is `path::Qualified.name`. */
    witnessSets: string[][];
}

export type DistillScenario = "overview" | "query";
export type DistillFormat = "json" | "markdown";

export interface DistillParams {
    /** Default "overview" (A); "query" (B) needs `question`. */
    scenario?: DistillScenario;
    /** 1–4,000 characters. */
    question?: string;
    /** 512–1,000,000,000; effective cap = min(release cap 22,016 / 12,288, 24,576, budgetBytes). */
    budgetBytes?: number;
    /** Default "json". */
    format?: DistillFormat;
    /** At most 64. */
    obligations?: Obligation[];
    /** 1–3,600,000: absolute deadline from receipt; default 180,000. */
    deadlineMs?: number;
    rootUri?: string;
}

/** The knowledge pack; its schema is owned by `distill.md`, so it stays opaque here. */
export type KnowledgePack = Record<string, unknown>;

export interface DistillJsonResult {
    pack: KnowledgePack;
}

export interface DistillMarkdownResult {
    markdown: string;
    cacheKey: string;
    status: string;
}

export type DistillResult = DistillJsonResult | DistillMarkdownResult;

export const distill = new lc.RequestType<DistillParams, DistillResult, void>("codegraph/distill");

// ---- codegraph/evidence ------------------------------------------------------------------

export interface EvidenceSource {
    path: string;
    lines: [number, number];
    sha256: string;
}

export interface EvidenceParams {
    sources: EvidenceSource[];
    /** 1–1,000,000,000; default 98,304. */
    maxBytes?: number;
    rootUri?: string;
}

export type EvidenceError = "content-modified" | "not-found" | "outside-scope";

export type EvidenceBlock =
    | { path: string; lines: [number, number]; text: string }
    | { path: string; lines: [number, number]; error: EvidenceError };

export interface EvidenceResult {
    blocks: EvidenceBlock[];
}

export const evidence = new lc.RequestType<EvidenceParams, EvidenceResult, void>("codegraph/evidence");

// ---- errors (JSON-RPC codes the server uses) ---------------------------------------------

export const ErrorCodes = {
    InvalidParams: -32602,
    RequestCancelled: -32800,
    ContentModified: -32801,
    RequestFailed: -32803,
} as const;

// ---- the graph's queries: codegraph/symbols, codegraph/calls, codegraph/impact ----------------
// (the editor reaches the same index through workspace/symbol and the call hierarchy; these are
// the requests the CLI and MCP answer, byte for byte the same)

export interface SymbolsParams {
    /** 1–200 characters, not blank: a name or part of one, fuzzy and camel-case aware. */
    query: string;
    /** 1–500; default 50. */
    limit?: number;
    /** 1,000–400,000; default by repository size, as explore's. */
    maxOutputChars?: number;
    /** A workspace folder; default the only / first one. */
    rootUri?: string;
}

export interface SymbolHit {
    id: string;
    name: string;
    qualname: string;
    kind: string;
    path: string;
    line: number;
    endLine: number;
    test: boolean;
}

export interface QueryStats {
    chars: number;
    budget: number;
    matches?: number;
    edges?: number;
    impacted?: number;
    tests?: number;
    shown: number;
}

export interface SymbolsResult {
    text: string;
    symbols: SymbolHit[];
    stats: QueryStats;
}

export const symbols = new lc.RequestType<SymbolsParams, SymbolsResult, void>("codegraph/symbols");

export type CallDirection = "callers" | "callees";

export interface CallsParams {
    /** 1–1,000 characters: a name, Class.member, path::Qualified.name or path:LINE. */
    symbol: string;
    /** Default "callers". */
    direction?: CallDirection;
    /** 1–5; default 1. */
    depth?: number;
    /** Default true: likely edges too, labelled with their rule and confidence. */
    likely?: boolean;
    /** 1,000–400,000; default by repository size, as explore's. */
    maxOutputChars?: number;
    /** A workspace folder; default the only / first one. */
    rootUri?: string;
}

export interface UnitRef {
    id: string;
    qualname: string;
    kind: string;
    path: string;
    line: number;
}

export interface CallSite {
    path: string;
    line: number;
}

/** One edge of the tree: `proven` false means a likely edge (`rule`, `confidence`), never a fact. */
export interface CallEdge {
    root: string;
    depth: number;
    parent: number;
    caller: UnitRef;
    callee: UnitRef;
    proven: boolean;
    rule: string;
    confidence: number;
    sites: CallSite[];
    family: UnitRef[];
}

export interface CallsResult {
    text: string;
    symbols: SymbolHit[];
    direction: CallDirection;
    depth: number;
    edges: CallEdge[];
    stats: QueryStats;
}

export const calls = new lc.RequestType<CallsParams, CallsResult, void>("codegraph/calls");

export interface ImpactParams {
    /** 1–64 items: "path", "path:LINE" or "path:START-END". */
    changes: string[];
    /** 1–8; default 3. */
    depth?: number;
    /** Default true: follow likely edges too (path confidence at least 0.3). */
    likely?: boolean;
    /** 1,000–400,000; default by repository size, as explore's. */
    maxOutputChars?: number;
    /** A workspace folder; default the only / first one. */
    rootUri?: string;
}

export interface ImpactedUnit {
    id: string;
    qualname: string;
    kind: string;
    path: string;
    line: number;
    distance: number;
    proven: boolean;
    confidence: number;
    via: string;
    site: CallSite;
}

export interface ImpactResult {
    text: string;
    changed: UnitRef[];
    impacted: ImpactedUnit[];
    tests: ImpactedUnit[];
    stats: QueryStats;
}

export const impact = new lc.RequestType<ImpactParams, ImpactResult, void>("codegraph/impact");

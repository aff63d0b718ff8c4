/**
 * The codegraph custom LSP methods, typed. Mirrors `docs/protocol.md` one to one:
 * field names are camelCase on the wire; optional fields have server-side defaults.
 */
import * as lc from "vscode-languageclient";

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
    lastUpdateMs: number;
}

export interface StatusResult {
    indexVersion: number;
    ready: boolean;
    roots: RootStatus[];
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

export interface ExploreFile {
    path: string;
    mode: FileMode;
    reason: string;
    chars: number;
    symbols: string[];
}

export interface ExploreStats {
    chars: number;
    budget: number;
    candidates: number;
    skeletonized: number;
    elapsedMs: number;
    indexVersion: number;
    adaptive: boolean;
}

export interface ExploreResult {
    /** Markdown: `## Flow`, then one `#### path — symbols · mode` section per file. */
    text: string;
    flow: FlowHop[];
    hops: FlowStep[];
    files: ExploreFile[];
    stats: ExploreStats;
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
    question?: string;
    obligations?: Obligation[];
    /** Effective cap = min(release cap, 24,576, budgetBytes). */
    budgetBytes?: number;
    /** Default "json". */
    format?: DistillFormat;
    /** Absolute deadline from receipt; default 180,000. */
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
    /** Default 98,304. */
    maxBytes?: number;
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

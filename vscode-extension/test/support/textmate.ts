// Tokenizes Fitz source with vscode-textmate and vscode-oniguruma, the engine VS Code uses.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

export const EXTENSION_ROOT = path.resolve(__dirname, '..', '..', '..');
export const GRAMMAR_PATH = path.join(EXTENSION_ROOT, 'syntaxes', 'fitz.tmLanguage.json');
export const VIEW_GRAMMAR_PATH = path.join(EXTENSION_ROOT, 'syntaxes', 'fitzv.tmLanguage.json');
/**
 * VS Code ships `source.sql`; the tests use a tiny stand-in (a few keywords) so that they can
 * check that the embedding reaches the SQL grammar. Scopes from it end in `.sql-stub`.
 */
export const SQL_STUB_PATH = path.join(EXTENSION_ROOT, 'test', 'support', 'sql-stub.tmLanguage.json');

export interface Token {
  line: number; // 1-based
  column: number; // 1-based, UTF-16 code units
  text: string;
  scopes: string[]; // without the root scope
}

let grammarPromise: Promise<vsctm.IGrammar> | undefined;
const grammarCache = new Map<string, Promise<vsctm.IGrammar>>();

function onigLib(): Promise<vsctm.IOnigLib> {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  const data = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
  return oniguruma.loadWASM(data).then(() => ({
    createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s: string) => new oniguruma.OnigString(s),
  }));
}

let lib: Promise<vsctm.IOnigLib> | undefined;

/** The Fitz grammar; `withSql` adds the stand-in SQL grammar. */
export function loadGrammar(withSql = true): Promise<vsctm.IGrammar> {
  const key = withSql ? 'sql' : 'plain';
  let g = grammarCache.get(key);
  if (g === undefined) {
    lib ??= onigLib();
    const registry = new vsctm.Registry({
      onigLib: lib,
      loadGrammar: async (scopeName: string) => {
        if (scopeName === 'source.fitz') {
          return vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH);
        }
        if (scopeName === 'source.sql' && withSql) {
          return vsctm.parseRawGrammar(fs.readFileSync(SQL_STUB_PATH, 'utf8'), SQL_STUB_PATH);
        }
        return null;
      },
    });
    g = registry.loadGrammar('source.fitz').then((grammar) => {
      if (grammar === null) throw new Error('source.fitz did not load');
      return grammar;
    });
    grammarCache.set(key, g);
  }
  grammarPromise = g;
  return grammarPromise;
}

let viewGrammar: Promise<vsctm.IGrammar> | undefined;

/** Stand-in for VS Code's built-in `source.css` (scopes end in `.css-stub`). */
export const CSS_STUB_PATH = path.join(EXTENSION_ROOT, 'test', 'support', 'css-stub.tmLanguage.json');

/** The .fitzv grammar, embedding the Fitz grammar and the stand-in CSS grammar. */
export function loadViewGrammar(): Promise<vsctm.IGrammar> {
  if (viewGrammar === undefined) {
    lib ??= onigLib();
    const registry = new vsctm.Registry({
      onigLib: lib,
      loadGrammar: async (scopeName: string) => {
        if (scopeName === 'source.fitzv') return vsctm.parseRawGrammar(fs.readFileSync(VIEW_GRAMMAR_PATH, 'utf8'), VIEW_GRAMMAR_PATH);
        if (scopeName === 'source.fitz') return vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH);
        if (scopeName === 'source.css') return vsctm.parseRawGrammar(fs.readFileSync(CSS_STUB_PATH, 'utf8'), CSS_STUB_PATH);
        return null;
      },
    });
    viewGrammar = registry.loadGrammar('source.fitzv').then((grammar) => {
      if (grammar === null) throw new Error('source.fitzv did not load');
      return grammar;
    });
  }
  return viewGrammar;
}

/** Tokens of a .fitzv view. */
export async function tokenizeView(source: string): Promise<Token[]> {
  return tokenizeWith(await loadViewGrammar(), source);
}

export async function tokenize(source: string, withSql = true): Promise<Token[]> {
  return tokenizeWith(await loadGrammar(withSql), source);
}

function tokenizeWith(grammar: vsctm.IGrammar, source: string): Token[] {
  const lines = source.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const out: Token[] = [];
  let stack = vsctm.INITIAL;
  lines.forEach((text, i) => {
    const r = grammar.tokenizeLine(text, stack, 0);
    if (r.stoppedEarly) throw new Error(`tokenizing stopped early on line ${i + 1}`);
    for (const t of r.tokens) {
      const piece = text.slice(t.startIndex, Math.min(t.endIndex, text.length));
      if (piece.length === 0) continue;
      out.push({ line: i + 1, column: t.startIndex + 1, text: piece, scopes: t.scopes.slice(1) });
    }
    stack = r.ruleStack;
  });
  return out;
}

/** One line per token; tokens that are only whitespace are skipped. */
export function dumpScopes(tokens: readonly Token[]): string {
  const lines: string[] = [];
  for (const t of tokens) {
    if (/^\s*$/.test(t.text)) continue;
    lines.push(`${t.line}:${t.column} ${JSON.stringify(t.text)} ${t.scopes.length === 0 ? '-' : t.scopes.join(' ')}`);
  }
  return lines.join('\n') + '\n';
}

// JSON-RPC transcript tests through the real binary: `node --test tests/lsp/` with FITZ_BIN
// pointing at the fitz executable (default build/bin/fitz). Drives initialize, open, edit,
// diagnostics, hover, completion, definition, references, rename, symbols, malformed input and
// shutdown, and asserts every answer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LspClient, uriOf } from './lsp_client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FITZ = process.env.FITZ_BIN ?? path.resolve(here, '..', '..', 'build', 'bin', 'fitz');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-lsp-transcript-'));
fs.writeFileSync(path.join(root, 'fitz.toml'), '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "main.fitz"\n');
const GEOMETRY = path.join(root, 'geometry.fitz');
fs.writeFileSync(GEOMETRY, [
  'type Rect {',
  '    w: Int',
  '    h: Int',
  '}',
  '',
  '// The area of a rectangle.',
  'fn area(r: Rect) -> Int => r.w * r.h',
  '',
].join('\n'));
const MAIN = path.join(root, 'main.fitz');
const MAIN_TEXT = [
  'from geometry import Rect, area',
  'let count = 3',
  'let label = "items: " + count',
  'let r = Rect { w: 3, h: 4 }',
  'print(area(r))',
  'print(label)',
  '',
].join('\n');
fs.writeFileSync(MAIN, MAIN_TEXT);
const MAIN_URI = uriOf(MAIN);
const GEOMETRY_URI = uriOf(GEOMETRY);

describe(`fitz lsp transcript (${FITZ})`, { timeout: 60000 }, () => {
  let c;
  before(async () => {
    assert.ok(fs.existsSync(FITZ), `fitz binary not found at ${FITZ}`);
    c = new LspClient(FITZ, { cwd: root });
  });
  after(() => {
    if (c && c.child.exitCode === null) c.child.kill();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('initialize announces the capabilities and no position encoding', async () => {
    const r = await c.initialize(root);
    const caps = r.capabilities;
    assert.equal(caps.positionEncoding, undefined);
    assert.equal(caps.textDocumentSync.change, 2, 'incremental sync');
    for (const k of ['hoverProvider', 'definitionProvider', 'referencesProvider', 'documentSymbolProvider',
      'workspaceSymbolProvider', 'foldingRangeProvider', 'selectionRangeProvider', 'documentHighlightProvider',
      'inlayHintProvider', 'codeActionProvider', 'documentFormattingProvider'])
      assert.ok(caps[k], k);
    assert.deepEqual(caps.completionProvider.triggerCharacters, ['.', '@', '<', '{'] /* `<` and `{` for .fitzv views */);
    assert.equal(caps.renameProvider.prepareProvider, true);
    assert.equal(caps.semanticTokensProvider.full.delta, true);
  });

  it('didOpen publishes the type error where the CLI reports it', async () => {
    c.notify('textDocument/didOpen', { textDocument: { uri: MAIN_URI, languageId: 'fitz', version: 1, text: MAIN_TEXT } });
    const p = await c.diagnostics(MAIN_URI, (x) => x.diagnostics.length > 0);
    const errors = p.diagnostics.filter((d) => d.severity === 1);
    assert.equal(errors.length, 1, JSON.stringify(p.diagnostics));
    assert.equal(errors[0].code, 'E0301');
    assert.deepEqual(errors[0].range.start, { line: 2, character: 22 });
    assert.equal(errors[0].source, 'fitz');
  });

  it('hover shows the type of a variable', async () => {
    const h = await c.call('textDocument/hover', { textDocument: { uri: MAIN_URI }, position: { line: 2, character: 25 } });
    assert.match(h.contents.value, /count: Int/);
  });

  it('hover on an imported function shows its signature and doc comment', async () => {
    const h = await c.call('textDocument/hover', { textDocument: { uri: MAIN_URI }, position: { line: 4, character: 7 } });
    assert.match(h.contents.value, /fn area\(r: Rect\) -> Int/);
    assert.match(h.contents.value, /The area of a rectangle/);
  });

  it('an incremental edit that fixes the error clears it', async () => {
    const from = c.notifications.length;
    // Replace `+ count` with `+ "3"` on line 3 (0-based 2).
    c.notify('textDocument/didChange', {
      textDocument: { uri: MAIN_URI, version: 2 },
      contentChanges: [{ range: { start: { line: 2, character: 24 }, end: { line: 2, character: 29 } }, text: '"3"' }],
    });
    const p = await c.diagnostics(MAIN_URI, (x) => x.version === 2, { fromIndex: from });
    assert.deepEqual(p.diagnostics.filter((d) => d.severity === 1), []);
  });

  it('completion after `.` lists members by receiver type', async () => {
    c.notify('textDocument/didChange', {
      textDocument: { uri: MAIN_URI, version: 3 },
      contentChanges: [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, text: 'print(r.w)\nlabel.\n' }],
    });
    const fields = await c.call('textDocument/completion', { textDocument: { uri: MAIN_URI }, position: { line: 5, character: 8 } });
    const labels = fields.items.map((i) => i.label);
    assert.ok(labels.includes('w') && labels.includes('h'), labels.join(','));
    const strs = await c.call('textDocument/completion', { textDocument: { uri: MAIN_URI }, position: { line: 6, character: 6 } });
    const names = strs.items.map((i) => i.label);
    assert.ok(names.includes('upper') && names.includes('split'), names.join(','));
    // Back to a clean file.
    c.notify('textDocument/didChange', {
      textDocument: { uri: MAIN_URI, version: 4 },
      contentChanges: [{ range: { start: { line: 5, character: 0 }, end: { line: 7, character: 0 } }, text: '' }],
    });
  });

  it('completion after `@` offers decorators as snippets', async () => {
    const r = await c.call('textDocument/completion', { textDocument: { uri: MAIN_URI }, position: { line: 0, character: 0 } });
    assert.ok(r.items.some((i) => i.label === 'count'), 'globals at the top level');
  });

  it('definition of an imported function goes to the other module', async () => {
    const locs = await c.call('textDocument/definition', { textDocument: { uri: MAIN_URI }, position: { line: 4, character: 7 } });
    assert.equal(locs.length, 1);
    assert.equal(locs[0].uri, GEOMETRY_URI);
    assert.deepEqual(locs[0].range.start, { line: 6, character: 3 });
  });

  it('references find uses across modules', async () => {
    const refs = await c.call('textDocument/references', {
      textDocument: { uri: GEOMETRY_URI }, position: { line: 6, character: 4 }, context: { includeDeclaration: true },
    });
    const uris = new Set(refs.map((r) => r.uri));
    assert.ok(uris.has(MAIN_URI) && uris.has(GEOMETRY_URI), JSON.stringify(refs));
    assert.equal(refs.length, 3, 'declaration, the import and the call');
  });

  it('rename edits every module and rejects invalid names', async () => {
    const prep = await c.call('textDocument/prepareRename', { textDocument: { uri: MAIN_URI }, position: { line: 4, character: 7 } });
    assert.equal(prep.placeholder, 'area');
    const edit = await c.call('textDocument/rename', { textDocument: { uri: MAIN_URI }, position: { line: 4, character: 7 }, newName: 'surface' });
    assert.equal(edit.changes[MAIN_URI].length, 2);
    assert.equal(edit.changes[GEOMETRY_URI].length, 1);
    assert.ok(Object.values(edit.changes).flat().every((e) => e.newText === 'surface'));
    const bad = await c.request('textDocument/rename', { textDocument: { uri: MAIN_URI }, position: { line: 4, character: 7 }, newName: 'fn' });
    assert.ok(bad.error, 'a keyword is refused');
    const builtin = await c.call('textDocument/prepareRename', { textDocument: { uri: MAIN_URI }, position: { line: 4, character: 2 } });
    assert.equal(builtin, null, '`print` is built in');
  });

  it('document and workspace symbols', async () => {
    const syms = await c.call('textDocument/documentSymbol', { textDocument: { uri: GEOMETRY_URI } });
    assert.deepEqual(syms.map((s) => s.name), ['Rect', 'area']);
    assert.deepEqual(syms[0].children.map((s) => s.name), ['w', 'h']);
    const ws = await c.call('workspace/symbol', { query: 'rec' });
    assert.ok(ws.some((s) => s.name === 'Rect' && s.location.uri === GEOMETRY_URI));
  });

  it('semantic tokens, folding and selection ranges answer', async () => {
    const t = await c.call('textDocument/semanticTokens/full', { textDocument: { uri: GEOMETRY_URI } });
    assert.ok(t.data.length > 0 && t.data.length % 5 === 0);
    const d = await c.call('textDocument/semanticTokens/full/delta', { textDocument: { uri: GEOMETRY_URI }, previousResultId: t.resultId });
    assert.deepEqual(d.edits, []);
    const folds = await c.call('textDocument/foldingRange', { textDocument: { uri: GEOMETRY_URI } });
    assert.ok(folds.some((f) => f.startLine === 0), JSON.stringify(folds));
    const sel = await c.call('textDocument/selectionRange', { textDocument: { uri: GEOMETRY_URI }, positions: [{ line: 6, character: 30 }] });
    assert.ok(sel[0].parent, 'nested ranges');
  });

  it('formatting answers with what `fitz fmt` prints, and leaves broken text alone', async () => {
    const messy = path.join(root, 'messy.fitz');
    const text = 'let  x=1\nfn  f( a:Int )->Int=>a+x\nprint( f(2) )\n';
    const uri = uriOf(messy);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'fitz', version: 1, text } });
    const expected = execFileSync(FITZ, ['fmt', '-'], { input: text, cwd: root }).toString();
    assert.notEqual(expected, text);
    const edits = await c.call('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } });
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].range, { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } });
    assert.equal(edits[0].newText, expected);
    c.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: expected }] });
    assert.deepEqual(await c.call('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } }), []);
    c.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: 'let x = (\n' }] });
    assert.equal(await c.call('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } }), null);
    c.notify('textDocument/didClose', { textDocument: { uri } });
  });

  it('malformed messages get errors and the server keeps going', async () => {
    const from = c.notifications.length;
    c.writeRaw('Content-Length: 5\r\n\r\n{nope');
    const pe = await c.waitFor((m) => m.error && m.error.code === -32700, 5000, { fromIndex: from });
    assert.equal(pe.id, null);
    c.writeRaw('Content-Length: 2\r\n\r\n[]');
    await c.waitFor((m) => m.error && m.error.code === -32600, 5000, { fromIndex: from });
    const unknown = await c.request('textDocument/unknownThing', {});
    assert.equal(unknown.error.code, -32601);
    const badParams = await c.request('textDocument/hover', { textDocument: { uri: MAIN_URI }, position: { line: 'x' } });
    assert.ok(badParams.error, 'bad params are an error, not a crash');
    const h = await c.call('textDocument/hover', { textDocument: { uri: MAIN_URI }, position: { line: 1, character: 5 } });
    assert.match(h.contents.value, /Int/);
  });

  it('shutdown then exit ends the process with status 0', async () => {
    const code = await c.shutdown();
    assert.equal(code, 0);
  });
});

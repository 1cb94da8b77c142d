// Modules created, renamed and deleted on disk while `fitz lsp` runs: the server keeps the
// project's directory listings between analyses (frontend/dir_listings.h) and must still see
// every change. The project is left alone for a while before the server opens it, so that its
// directories are old enough for their listings to be reused; each change then lands in a
// subdirectory whose listing the server holds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LspClient, uriOf } from './lsp_client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FITZ = process.env.FITZ_BIN ?? path.resolve(here, '..', '..', 'build', 'bin', 'fitz');

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-lsp-files-')));
fs.mkdirSync(path.join(root, 'src', 'sub'), { recursive: true });
fs.writeFileSync(path.join(root, 'fitz.toml'), '[package]\nname = "files"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "src/main.fitz"\n');
const MAIN = path.join(root, 'src', 'main.fitz');
fs.writeFileSync(MAIN, 'print("main")\n');
fs.writeFileSync(path.join(root, 'src', 'sub', 'ok.fitz'), 'fn ok() -> Int => 1\n');
// Nothing imports it: the server only checks it because it lists src/ and its subdirectories.
const BROKEN_TEXT = 'fn broken() -> Int {\n    return "not an int"\n}\n';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const errors = (p) => p.diagnostics.filter((d) => d.severity === 1);

describe(`fitz lsp: modules created and deleted on disk (${FITZ})`, { timeout: 60000 }, () => {
  let c;
  before(async () => {
    assert.ok(fs.existsSync(FITZ), `fitz binary not found at ${FITZ}`);
    await sleep(400);  // older than the timestamp granularity the listings allow for
    c = new LspClient(FITZ, { cwd: root });
    await c.initialize(root);
    c.notify('textDocument/didOpen', { textDocument: { uri: uriOf(MAIN), languageId: 'fitz', version: 1, text: 'print("main")\n' } });
    await c.diagnostics(uriOf(MAIN), (p) => p.version === 1);
  });
  after(async () => {
    if (c && c.child.exitCode === null) await c.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  // A watched-files event, then an edit of the open file: either is enough to analyse again.
  let version = 1;
  const touch = (changes) => {
    c.notify('workspace/didChangeWatchedFiles', { changes });
    version++;
    c.notify('textDocument/didChange', { textDocument: { uri: uriOf(MAIN), version }, contentChanges: [{ text: `print("main ${version}")\n` }] });
  };

  it('checks a module created in a subdirectory', async () => {
    await sleep(300);  // every listing the server read is now old enough to be reused
    const file = path.join(root, 'src', 'sub', 'broken.fitz');
    const from = c.notifications.length;
    fs.writeFileSync(file, BROKEN_TEXT);
    touch([{ uri: uriOf(file), type: 1 }]);
    const p = await c.diagnostics(uriOf(file), (q) => errors(q).length > 0, { fromIndex: from });
    assert.equal(errors(p).length, 1);
  });

  it('checks a module renamed, and clears the old name', async () => {
    await sleep(300);
    const oldFile = path.join(root, 'src', 'sub', 'broken.fitz');
    const newFile = path.join(root, 'src', 'sub', 'renamed.fitz');
    const from = c.notifications.length;
    fs.renameSync(oldFile, newFile);
    touch([{ uri: uriOf(oldFile), type: 3 }, { uri: uriOf(newFile), type: 1 }]);
    const p = await c.diagnostics(uriOf(newFile), (q) => errors(q).length > 0, { fromIndex: from });
    assert.equal(errors(p).length, 1);
    await c.diagnostics(uriOf(oldFile), (q) => q.diagnostics.length === 0, { fromIndex: from });
  });

  it('checks a module created in a new subdirectory', async () => {
    await sleep(300);
    const file = path.join(root, 'src', 'sub', 'deeper', 'more.fitz');
    const from = c.notifications.length;
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, BROKEN_TEXT.replace('broken', 'more'));
    touch([{ uri: uriOf(file), type: 1 }]);
    const p = await c.diagnostics(uriOf(file), (q) => errors(q).length > 0, { fromIndex: from });
    assert.equal(errors(p).length, 1);
  });

  it('forgets a deleted module', async () => {
    await sleep(300);
    const file = path.join(root, 'src', 'sub', 'renamed.fitz');
    const from = c.notifications.length;
    fs.unlinkSync(file);
    touch([{ uri: uriOf(file), type: 3 }]);
    await c.diagnostics(uriOf(file), (q) => q.diagnostics.length === 0, { fromIndex: from });
  });
});

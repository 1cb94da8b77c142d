// CLI/server parity: every .fitz file of the corpus (tests/testdata/**, and the shared
// conformance corpus when present: FITZ_CONFORMANCE_DIR, default ../shared/conformance) is
// checked by `fitz lint --format=json` (the checker's diagnostics with the lint warnings, which
// the server publishes too) and opened in one `fitz lsp`; the diagnostics of the file must be
// the same: code, severity, range (converted to UTF-16), message with its hint,
// labels as related information.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LspClient, uriOf } from './lsp_client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const FITZ = process.env.FITZ_BIN ?? path.join(repo, 'build', 'bin', 'fitz');
const CONFORMANCE = process.env.FITZ_CONFORMANCE_DIR ?? path.resolve(repo, '..', 'shared', 'conformance');

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.fitz')) out.push(p);
  }
  return out.sort();
}

// Copies a corpus file into its own directory; `// --- file: NAME` sections become files.
function materialise(src, dest) {
  fs.mkdirSync(dest, { recursive: true });
  const text = fs.readFileSync(src);
  const s = text.toString('utf8');
  if (!s.startsWith('// --- file: ')) {
    fs.writeFileSync(path.join(dest, path.basename(src)), text);
    return path.join(dest, path.basename(src));
  }
  let entry;
  for (const part of s.split(/^\/\/ --- file: /m).slice(1)) {
    const nl = part.indexOf('\n');
    const name = part.slice(0, nl).trim();
    const p = path.join(dest, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, part.slice(nl + 1));
    entry ??= p;
  }
  return entry;
}

// LSP position of a byte offset in `buf`.
function lspPos(buf, offset) {
  const before = buf.subarray(0, offset).toString('utf8');
  const nl = before.lastIndexOf('\n');
  return { line: before.split('\n').length - 1, character: before.length - (nl + 1) };
}

function expectedFromCli(jsonLines, entry, cwd) {
  const files = new Map();
  const bufOf = (f) => {
    const abs = path.resolve(cwd, f);
    if (!files.has(abs)) files.set(abs, fs.readFileSync(abs));
    return [abs, files.get(abs)];
  };
  const out = [];
  for (const line of jsonLines.split('\n').filter(Boolean)) {
    const d = JSON.parse(line);
    if (!d.file || path.resolve(cwd, d.file) !== entry) continue;
    const [, buf] = bufOf(d.file);
    const e = {
      range: { start: lspPos(buf, d.span.start.offset), end: lspPos(buf, d.span.end.offset) },
      severity: d.severity === 'error' ? 1 : d.severity === 'warning' ? 2 : 3,
      code: d.code,
      message: d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message,
    };
    const rel = (d.labels ?? []).filter((l) => l.file).map((l) => {
      const [abs, lb] = bufOf(l.file);
      return { location: { uri: uriOf(abs), range: { start: lspPos(lb, l.span.start.offset), end: lspPos(lb, l.span.end.offset) } }, message: l.message };
    });
    if (rel.length) e.relatedInformation = rel;
    out.push(e);
  }
  return out;
}

const strip = (d) => {
  const { range, severity, code, message, relatedInformation } = d;
  return relatedInformation ? { range, severity, code, message, relatedInformation } : { range, severity, code, message };
};

const corpus = [...walk(path.join(repo, 'tests', 'testdata')), ...walk(CONFORMANCE)];

describe(`CLI and server agree on ${corpus.length} files`, { timeout: 600000 }, () => {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-lsp-parity-')));
  let c;
  before(async () => {
    assert.ok(fs.existsSync(FITZ), `fitz binary not found at ${FITZ}`);
    c = new LspClient(FITZ, { cwd: work });
    await c.initialize(work);
  });
  after(async () => {
    if (c) await c.shutdown().catch(() => c.child.kill());
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('has a corpus', () => assert.ok(corpus.length > 0));

  corpus.forEach((src, i) => {
    const name = path.relative(repo, src).startsWith('..') ? path.relative(CONFORMANCE, src) : path.relative(repo, src);
    it(name, async () => {
      const dir = path.join(work, String(i));
      const entry = materialise(src, dir);
      let out = '';
      try {
        out = execFileSync(FITZ, ['lint', '--format=json', path.basename(entry)], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (e) {
        if (e.status !== 1) throw new Error(`fitz lint exited with ${e.status} (signal ${e.signal})`);
        out = e.stdout;
      }
      const expected = expectedFromCli(out, entry, dir);
      const uri = uriOf(entry);
      const from = c.notifications.length;
      c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'fitz', version: 1, text: fs.readFileSync(entry, 'utf8') } });
      const p = await c.diagnostics(uri, (x) => x.version === 1, { fromIndex: from });
      assert.deepEqual(p.diagnostics.map(strip), expected);
      c.notify('textDocument/didClose', { textDocument: { uri } });
    });
  });
});

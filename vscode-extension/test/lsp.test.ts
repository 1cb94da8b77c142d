// End-to-end check of the real language server: spawns `fitz lsp` over stdio ($FITZ_BIN, else
// ../build/bin/fitz) and speaks LSP to it through vscode-languageserver-protocol, the library
// the VS Code client is built on. Run with `npm run test:lsp`. It FAILS (never skips) when the
// binary or its `lsp` subcommand is missing.
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  InitializeResult,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { EXTENSION_ROOT } from './support/textmate';

const FITZ = process.env.FITZ_BIN ?? path.resolve(EXTENSION_ROOT, '..', 'build', 'bin', 'fitz');
const TIMEOUT = Number(process.env.FITZ_LSP_TIMEOUT_MS ?? 15_000);

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-lsp-test-'));
fs.writeFileSync(path.join(workspace, 'fitz.toml'), '[package]\nname = "lsptest"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "main.fitz"\n');

// The type error of the conformance case check/plus_str_int: `+` at 3:23 (1-based).
const MAIN = path.join(workspace, 'main.fitz');
const MAIN_TEXT = [
  '// `+` adds numbers or joins two Str values; it does not mix them.',
  'let count = 3',
  'let label = "items: " + count',
  'print(label)',
  '',
].join('\n');
fs.writeFileSync(MAIN, MAIN_TEXT);
const MAIN_URI = pathToFileURL(MAIN).href;

// Same mistake after a character outside the BMP: LSP columns count UTF-16 code units, so the
// `+` is at character 25 (the emoji counts two), while fitz's own 1-based column, which counts
// Unicode scalars, is also 25 (0-based scalar index 24, plus one).
const WIDE = path.join(workspace, 'wide.fitz');
const WIDE_TEXT = 'let count = 3\nlet label = "😀 items: " + count\n';
fs.writeFileSync(WIDE, WIDE_TEXT);
const WIDE_URI = pathToFileURL(WIDE).href;

// A live view with an unknown name in its template (E0550 at 3:17, 1-based).
const VIEW = path.join(workspace, 'Shelf.fitzv');
const VIEW_TEXT = 'component Shelf {\n  state { count: Int = 0 }\n  <template><p>{cuont}</p></template>\n}\n';
fs.writeFileSync(VIEW, VIEW_TEXT);
const VIEW_URI = pathToFileURL(VIEW).href;

interface Session {
  child: ChildProcess;
  connection: ProtocolConnection;
  init: InitializeResult;
  stderr: () => string;
  diagnostics: (uri: string, predicate: (p: PublishDiagnosticsParams) => boolean) => Promise<PublishDiagnosticsParams>;
}

let sessionPromise: Promise<Session> | undefined;

function hoverText(contents: unknown): string {
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map(hoverText).join('\n');
  if (contents !== null && typeof contents === 'object' && 'value' in contents) return String((contents as { value: unknown }).value);
  return JSON.stringify(contents);
}

function withTimeout<T>(p: Promise<T>, what: string, stderr: () => string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT} ms waiting for ${what}\nserver stderr:\n${stderr()}`)), TIMEOUT);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function startSession(): Promise<Session> {
  sessionPromise ??= (async () => {
    if (!fs.existsSync(FITZ)) {
      throw new Error(`fitz binary not found at ${FITZ}: build it (make build) or set FITZ_BIN`);
    }
    const child = spawn(FITZ, ['lsp'], { cwd: workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<never>((_, reject) => {
      child.on('error', (e) => reject(new Error(`cannot start ${FITZ} lsp: ${e.message}`)));
      child.on('exit', (code, signal) =>
        reject(new Error(`\`${FITZ} lsp\` exited early (code ${code}, signal ${signal}); is the lsp subcommand implemented?\nstderr:\n${stderr}`)),
      );
    });
    exited.catch(() => undefined);
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const published: PublishDiagnosticsParams[] = [];
    const waiters: Array<{ uri: string; pred: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      published.push(p);
      for (const w of [...waiters]) {
        if (w.uri === p.uri && w.pred(p)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(p);
        }
      }
    });
    connection.listen();
    const init = await withTimeout(
      Promise.race([
        connection.sendRequest(InitializeRequest.type, {
          processId: process.pid,
          clientInfo: { name: 'fitz-extension-tests' },
          rootUri: pathToFileURL(workspace).href,
          workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'lsptest' }],
          capabilities: {
            general: { positionEncodings: ['utf-16'] },
            textDocument: {
              synchronization: { dynamicRegistration: false, didSave: true },
              publishDiagnostics: { relatedInformation: true },
              hover: { contentFormat: ['markdown', 'plaintext'] },
            },
            workspace: { workspaceFolders: true, configuration: true },
          },
        }),
        exited,
      ]),
      'the initialize response',
      () => stderr,
    );
    await connection.sendNotification(InitializedNotification.type, {});
    return {
      child,
      connection,
      init,
      stderr: () => stderr,
      diagnostics: (uri, pred) => {
        const seen = published.find((p) => p.uri === uri && pred(p));
        if (seen !== undefined) return Promise.resolve(seen);
        return withTimeout(
          Promise.race([new Promise<PublishDiagnosticsParams>((resolve) => waiters.push({ uri, pred, resolve })), exited]),
          `publishDiagnostics for ${path.basename(new URL(uri).pathname)}`,
          () => stderr,
        );
      },
    };
  })();
  return sessionPromise;
}

describe(`fitz lsp (${FITZ})`, { timeout: TIMEOUT * 4 }, () => {
  after(async () => {
    const s = await sessionPromise?.catch(() => undefined);
    if (s !== undefined && s.child.exitCode === null) s.child.kill();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('initialize: capabilities, and no position encoding other than UTF-16', async () => {
    const { init } = await startSession();
    const caps = init.capabilities;
    assert.ok(caps.textDocumentSync !== undefined, 'textDocumentSync');
    assert.ok(caps.hoverProvider, 'hoverProvider');
    assert.ok(caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16', `positionEncoding ${caps.positionEncoding}`);
  });

  it('didOpen of a file with a type error publishes it at the right range', async () => {
    const s = await startSession();
    await s.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: MAIN_URI, languageId: 'fitz', version: 1, text: MAIN_TEXT },
    });
    const p = await s.diagnostics(MAIN_URI, (x) => x.diagnostics.length > 0);
    const d = p.diagnostics.find((x) => x.range.start.line === 2);
    assert.ok(d !== undefined, `no diagnostic on line 3: ${JSON.stringify(p.diagnostics)}`);
    assert.deepEqual(d.range.start, { line: 2, character: 22 }, 'starts at the `+`');
    assert.ok(d.range.end.line === 2 && d.range.end.character >= 23, `range end ${JSON.stringify(d.range.end)}`);
    assert.equal(d.severity, 1, 'error severity');
    assert.equal(d.code, 'E0301');
    assert.match(hoverText(d.message), /does not accept/i);
    assert.equal(p.diagnostics.filter((x) => x.severity === 1).length, 1, `exactly one error: ${JSON.stringify(p.diagnostics)}`);
  });

  it('hover over a variable shows its type', async () => {
    const s = await startSession();
    const hover = await withTimeout(
      s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: MAIN_URI }, position: { line: 2, character: 25 } }),
      'the hover response',
      s.stderr,
    );
    assert.ok(hover !== null, 'hover on `count` returned null');
    const text = hoverText(hover.contents);
    assert.match(text, /\bInt\b/, `hover text: ${text}`);
  });

  it('columns are UTF-16 code units', async () => {
    const s = await startSession();
    await s.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: WIDE_URI, languageId: 'fitz', version: 1, text: WIDE_TEXT },
    });
    const p = await s.diagnostics(WIDE_URI, (x) => x.diagnostics.length > 0);
    const d = p.diagnostics.find((x) => x.code === 'E0301');
    assert.ok(d !== undefined, JSON.stringify(p.diagnostics));
    assert.deepEqual(d.range.start, { line: 1, character: 25 });
  });

  it('fixing the error clears the diagnostics (didChange)', async () => {
    const s = await startSession();
    const fixed = MAIN_TEXT.replace('"items: " + count', '"items: {count}"');
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: MAIN_URI, version: 2 },
      contentChanges: [{ text: fixed }],
    });
    const p = await s.diagnostics(MAIN_URI, (x) => x.diagnostics.filter((d) => d.severity === 1).length === 0 && (x.version === undefined || x.version === 2));
    assert.deepEqual(p.diagnostics.filter((d) => d.severity === 1), []);
    await s.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: WIDE_URI } });
  });

  it('a .fitzv live view gets its diagnostic and hovers with the field origin', async () => {
    const s = await startSession();
    await s.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: VIEW_URI, languageId: 'fitzv', version: 1, text: VIEW_TEXT },
    });
    const p = await s.diagnostics(VIEW_URI, (x) => x.diagnostics.length > 0);
    const d = p.diagnostics.find((x) => x.code === 'E0550');
    assert.ok(d !== undefined, JSON.stringify(p.diagnostics));
    assert.deepEqual(d.range.start, { line: 2, character: 16 });
    assert.match(hoverText(d.message), /unknown variable `cuont`/);
    const hover = await withTimeout(
      s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: VIEW_URI }, position: { line: 1, character: 11 } }),
      'the hover response on the view',
      s.stderr,
    );
    assert.ok(hover !== null, 'hover on `count` returned null');
    assert.match(hoverText(hover.contents), /count: Int[\s\S]*state field of `Shelf`/);
  });

  it('shutdown and exit end the process with status 0', async () => {
    const s = await startSession();
    const done = new Promise<number | null>((resolve) => {
      if (s.child.exitCode !== null) resolve(s.child.exitCode);
      s.child.on('exit', (code) => resolve(code));
    });
    await withTimeout(s.connection.sendRequest(ShutdownRequest.type), 'the shutdown response', s.stderr);
    await s.connection.sendNotification(ExitNotification.type);
    const code = await withTimeout(done, 'the process to exit', s.stderr);
    assert.equal(code, 0);
    s.connection.dispose();
  });
});

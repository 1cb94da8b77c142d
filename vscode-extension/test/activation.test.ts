// Loads the compiled extension with a fake `vscode` module and a fake language client, and
// drives it: commands and settings wired, server start, crash back-off, status bar, tasks.
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { editorFor, fakeContext, flush, folder, installFakes, resetState, state } from './support/fakeVscode';
import { EXTENSION_ROOT } from './support/textmate';

installFakes();

const pkg = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-ext-test-'));
const fakeFitz = path.join(tmp, 'bin', 'fitz');
fs.mkdirSync(path.dirname(fakeFitz), { recursive: true });
fs.writeFileSync(fakeFitz, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
const project = path.join(tmp, 'proj');
fs.mkdirSync(path.join(project, 'src'), { recursive: true });
fs.writeFileSync(path.join(project, 'fitz.toml'), '[package]\nname = "proj"\n');
fs.writeFileSync(path.join(project, 'src', 'main.fitz'), 'print("hi")\n');
const loose = path.join(tmp, 'loose', 'hello.fitz');
fs.mkdirSync(path.dirname(loose), { recursive: true });
fs.writeFileSync(loose, 'print("hi")\n');

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// Manual timers: the extension schedules restarts with the global setTimeout.
interface Pending { fn: () => void; ms: number }
let pending: Pending[] = [];
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
function fakeTimers(): void {
  pending = [];
  (globalThis as any).setTimeout = (fn: () => void, ms: number) => {
    const p = { fn, ms };
    pending.push(p);
    return p;
  };
  (globalThis as any).clearTimeout = (p: Pending) => {
    pending = pending.filter((x) => x !== p);
  };
}
function realTimers(): void {
  globalThis.setTimeout = realSetTimeout;
  globalThis.clearTimeout = realClearTimeout;
}
async function runTimers(): Promise<number[]> {
  const due = pending;
  pending = [];
  for (const p of due) p.fn();
  await flush();
  await flush();
  return due.map((p) => p.ms);
}

function loadExtension(): any {
  const file = require.resolve('../src/extension');
  for (const key of Object.keys(require.cache)) if (key.startsWith(path.dirname(file))) delete require.cache[key];
  return require(file);
}

let ext: any;
let api: any;
let ctx: any;

async function activate(config: Record<string, unknown> = { 'fitz.serverPath': fakeFitz }): Promise<void> {
  state.config = config;
  state.workspaceFolders = [folder(project)];
  ext = loadExtension();
  ctx = fakeContext(path.join(tmp, 'ext'));
  api = ext.activate(ctx);
  await flush();
  await flush();
}

function status(): string {
  return state.statusItems[0].text;
}

describe('activation with fake vscode', () => {
  beforeEach(() => {
    resetState();
    fakeTimers();
  });
  afterEach(async () => {
    realTimers();
    if (ext !== undefined) await ext.deactivate();
    ext = undefined;
  });

  it('registers a handler for every contributed command, and only those', async () => {
    await activate();
    const contributed = pkg.contributes.commands.map((c: any) => c.command).sort();
    assert.deepEqual([...state.commands.keys()].sort(), contributed);
    assert.ok(state.taskProviders.has('fitz'), 'task provider for type fitz');
    assert.deepEqual(pkg.contributes.taskDefinitions.map((d: any) => d.type), ['fitz']);
  });

  it('reads every contributed setting', async () => {
    await activate();
    for (const key of Object.keys(pkg.contributes.configuration.properties)) assert.ok(state.configReads.has(key), `${key} never read`);
  });

  it('starts `fitz lsp` over stdio for fitz documents and shows ready', async () => {
    await activate();
    assert.equal(state.clients.length, 1);
    const c = state.clients[0];
    assert.equal(c.id, 'fitz');
    assert.equal(c.serverOptions.command, fakeFitz);
    assert.deepEqual(c.serverOptions.args, ['lsp']);
    assert.equal(c.serverOptions.transport, 0);
    assert.deepEqual(c.clientOptions.documentSelector.map((d: any) => d.language), ['fitz', 'fitz', 'fitzv', 'fitzv']);
    assert.equal(api.server.state, 'ready');
    assert.match(status(), /check/);
    assert.equal(state.statusItems[0].command, 'fitz.restartServer');
    assert.ok(state.statusItems[0].visible);
  });

  it('fitz.trace.server drives the trace channel log level', async () => {
    await activate({ 'fitz.serverPath': fakeFitz, 'fitz.trace.server': 'verbose' });
    assert.equal(state.clients[0].traceLevelAtStart, 1 /* Trace */);
    const trace = state.clients[0].clientOptions.traceOutputChannel;
    let fired: number | undefined;
    trace.onDidChangeLogLevel((l: number) => (fired = l));
    state.config['fitz.trace.server'] = 'off';
    for (const l of state.configListeners) l({ affectsConfiguration: (k: string) => k === 'fitz.trace.server' });
    assert.equal(fired, 3 /* Info: traces off */);
    trace.trace('a traced message');
    assert.ok(state.outputChannels.some((ch) => ch.lines.includes('a traced message')));
  });

  it('restarts a crashed server with exponential back-off, then gives up and offers the log', async () => {
    await activate();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const client = state.clients[state.clients.length - 1];
      const result = client.crash();
      assert.deepEqual(result, { action: 1 /* DoNotRestart */, handled: true });
      assert.equal(api.server.state, 'restarting');
      assert.match(status(), /sync~spin/);
      delays.push(...(await runTimers()));
      assert.equal(api.server.state, 'ready');
      assert.ok(client.disposed, 'the crashed client is disposed before the next one starts');
    }
    assert.deepEqual(delays, [500, 1000, 2000, 4000]);
    assert.equal(state.clients.length, 5);
    state.messageAnswer = 'Open Log';
    state.clients[4].crash();
    await flush();
    assert.equal(api.server.state, 'crashed');
    assert.match(status(), /error/);
    assert.equal(pending.length, 0, 'no further restart scheduled');
    const msg = state.messages.find((m) => m.kind === 'error');
    assert.ok(msg !== undefined && msg.items.includes('Open Log') && /crashed 5 times/.test(msg.text));
    assert.ok(state.outputChannels[0].shown > 0, 'Open Log shows the server log');
  });

  it('a crash of an old client after a restart is ignored', async () => {
    await activate();
    const old = state.clients[0];
    await state.commands.get('fitz.restartServer')!();
    assert.equal(state.clients.length, 2);
    old.crash();
    assert.equal(api.server.state, 'ready');
    assert.equal(pending.length, 0);
  });

  it('a failing start counts as a crash', async () => {
    await activate();
    // The next client fails to start.
    const origStart = (state.clients[0].constructor as any).prototype.start;
    (state.clients[0].constructor as any).prototype.start = async function () {
      throw new Error('spawn EACCES');
    };
    try {
      await state.commands.get('fitz.restartServer')!();
      assert.equal(api.server.state, 'restarting');
      assert.ok(state.outputChannels[0].lines.some((l) => /spawn EACCES/.test(l)));
    } finally {
      (state.clients[0].constructor as any).prototype.start = origStart;
    }
  });

  it('clicking the status item (fitz.restartServer) forgets crashes and starts afresh', async () => {
    await activate();
    for (let i = 0; i < 5; i++) {
      state.clients[state.clients.length - 1].crash();
      await runTimers();
    }
    assert.equal(api.server.state, 'crashed');
    await state.commands.get(state.statusItems[0].command)!();
    assert.equal(api.server.state, 'ready');
    state.clients[state.clients.length - 1].crash();
    assert.equal(api.server.state, 'restarting', 'back-off starts again from the first delay');
    assert.deepEqual(await runTimers(), [500]);
  });

  it('no binary: status says so, a warning offers the settings, no client', async () => {
    await activate({ 'fitz.serverPath': path.join(tmp, 'missing', 'fitz') });
    assert.equal(state.clients.length, 0);
    assert.equal(api.server.state, 'notFound');
    assert.match(status(), /no server/);
    const warning = state.messages.find((m) => m.kind === 'warning');
    assert.ok(warning !== undefined && warning.items.includes('Open Settings'));
    assert.match(warning.text, /missing/);
  });

  it('changing fitz.serverPath restarts the server with the new binary', async () => {
    await activate({ 'fitz.serverPath': path.join(tmp, 'missing', 'fitz') });
    state.config['fitz.serverPath'] = fakeFitz;
    for (const l of state.configListeners) l({ affectsConfiguration: (k: string) => k === 'fitz.serverPath' });
    await flush();
    await flush();
    assert.equal(api.server.state, 'ready');
    assert.equal(state.clients.length, 1);
  });

  it('deactivate stops the server', async () => {
    await activate();
    await ext.deactivate();
    assert.ok(state.clients[0].disposed);
    assert.equal(api.server.state, 'stopped');
    ext = undefined;
  });
});

describe('CLI commands run as tasks', () => {
  beforeEach(() => {
    resetState();
  });
  afterEach(async () => {
    if (ext !== undefined) await ext.deactivate();
    ext = undefined;
  });

  const expectations: Array<[string, string[]]> = [
    ['fitz.check', ['check', project]],
    ['fitz.build', ['build']],
    ['fitz.run', ['run']],
    ['fitz.test', ['test']],
    ['fitz.bench', ['bench']],
  ];
  for (const [id, args] of expectations) {
    it(`${id} in a project runs fitz ${args[0]} in the project root with the $fitz matcher`, async () => {
      await activate();
      state.activeTextEditor = editorFor(path.join(project, 'src', 'main.fitz'));
      await state.commands.get(id)!();
      assert.equal(state.tasksRun.length, 1);
      const task = state.tasksRun[0];
      assert.equal(task.execution.process, fakeFitz);
      assert.deepEqual(task.execution.args, args);
      assert.equal(task.execution.options.cwd, project);
      assert.equal(task.execution.options.env.FITZ_DIAGNOSTIC_COLUMNS, 'utf16');
      assert.deepEqual(task.problemMatchers, ['$fitz']);
      assert.equal(task.definition.type, 'fitz');
      assert.ok(state.savedAll > 0, 'dirty files are saved first');
    });
  }

  it('a loose file runs in single-file mode', async () => {
    await activate();
    state.workspaceFolders = undefined;
    state.activeTextEditor = editorFor(loose);
    await state.commands.get('fitz.test')!();
    assert.deepEqual(state.tasksRun[0].execution.args, ['test', '--file', loose]);
    assert.equal(state.tasksRun[0].execution.options.cwd, path.dirname(loose));
    assert.equal(state.tasksRun[0].definition.file, loose);
  });

  it('without a file or project the user is told what to open', async () => {
    await activate();
    state.workspaceFolders = undefined;
    await state.commands.get('fitz.run')!();
    assert.equal(state.tasksRun.length, 0);
    assert.ok(state.messages.some((m) => m.kind === 'error' && /open a \.fitz file/.test(m.text)));
  });

  it('the task provider offers the project tasks and resolves tasks.json entries', async () => {
    await activate();
    const provider = state.taskProviders.get('fitz');
    const tasks = provider.provideTasks();
    assert.deepEqual(tasks.map((t: any) => t.execution.args[0]), ['check', 'build', 'run', 'test', 'bench']);
    const resolved = provider.resolveTask({ definition: { type: 'fitz', command: 'run', file: 'src/main.fitz' }, scope: folder(project) });
    assert.deepEqual(resolved.execution.args, ['run', path.join(project, 'src', 'main.fitz')]);
    assert.equal(provider.resolveTask({ definition: { type: 'fitz', command: 'nope' }, scope: folder(project) }), undefined);
  });

  it('Show Generated C++ opens the output of fitz build --emit=cpp FILE -o - as C++', async () => {
    const emitter = path.join(tmp, 'bin', 'fitz-emit');
    fs.writeFileSync(emitter, '#!/bin/sh\n[ "$1 $2 $4 $5" = "build --emit=cpp -o -" ] || exit 2\nprintf \'// generated from %s\\nint main() { return 0; }\\n\' "$3"\n', { mode: 0o755 });
    await activate({ 'fitz.serverPath': emitter });
    const file = path.join(project, 'src', 'main.fitz');
    state.activeTextEditor = editorFor(file);
    await state.commands.get('fitz.showGeneratedCpp')!();
    assert.equal(state.openedDocuments.length, 1);
    assert.equal(state.openedDocuments[0].language, 'cpp');
    assert.equal(state.openedDocuments[0].content, `// generated from ${file}\nint main() { return 0; }\n`);
  });

  it('Show Generated C++ reports a failing build with its log', async () => {
    const failing = path.join(tmp, 'bin', 'fitz-fail');
    fs.writeFileSync(failing, '#!/bin/sh\necho "main.fitz:1:1: error[E0301]: boom" >&2\nexit 1\n', { mode: 0o755 });
    await activate({ 'fitz.serverPath': failing });
    state.activeTextEditor = editorFor(path.join(project, 'src', 'main.fitz'));
    await state.commands.get('fitz.showGeneratedCpp')!();
    assert.equal(state.openedDocuments.length, 0);
    assert.ok(state.messages.some((m) => m.kind === 'error' && /exit 1/.test(m.text)));
    assert.ok(state.outputChannels[0].lines.some((l) => /E0301/.test(l)));
  });
  it('the fitz debugger runs `fitz debug --dap` from the configured binary', async () => {
    await activate();
    const factory = state.debugAdapterFactories.get('fitz');
    assert.ok(factory, 'debug adapter factory for type fitz');
    assert.deepEqual(pkg.contributes.debuggers.map((d: any) => d.type), ['fitz']);
    const exe = factory.createDebugAdapterDescriptor({ type: 'fitz' });
    assert.equal(exe.command, fakeFitz);
    assert.deepEqual(exe.args, ['debug', '--dap']);
  });

  it('F5 without a launch.json debugs the project of the active file', async () => {
    await activate();
    const provider = state.debugConfigProviders.get('fitz');
    state.activeTextEditor = editorFor(path.join(project, 'src', 'main.fitz'));
    const config = provider.resolveDebugConfiguration(folder(project), {});
    assert.deepEqual(config, { type: 'fitz', request: 'launch', name: 'Debug proj', program: project, cwd: project, args: [] });
    state.activeTextEditor = editorFor(loose);
    state.workspaceFolders = [folder(path.dirname(loose))];
    assert.equal(provider.resolveDebugConfiguration(undefined, {}).program, loose);
  });

  it('a debug configuration with nothing to debug is refused with a message', async () => {
    await activate();
    state.workspaceFolders = undefined;
    const provider = state.debugConfigProviders.get('fitz');
    assert.equal(provider.resolveDebugConfiguration(undefined, {}), undefined);
    assert.ok(state.messages.some((m) => m.kind === 'error' && /to debug it/.test(m.text)));
  });
});

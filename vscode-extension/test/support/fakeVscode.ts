// Just enough of the `vscode` API and of `vscode-languageclient/node` to load and drive the
// compiled extension in plain node. Every call is recorded for the tests to inspect.
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as path from 'node:path';
import Module = require('node:module');

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class FakeOutputChannel {
  lines: string[] = [];
  shown = 0;
  logLevel = 2; // Info
  private levelEmitter = new EventEmitter<number>();
  onDidChangeLogLevel = this.levelEmitter.event;
  constructor(public readonly name: string) {}
  append(v: string) { this.lines.push(v); }
  appendLine(v: string) { this.lines.push(v); }
  replace(v: string) { this.lines = [v]; }
  clear() { this.lines = []; }
  show() { this.shown++; }
  hide() {}
  dispose() {}
  trace(m: string) { this.lines.push(`[trace] ${m}`); }
  debug(m: string) { this.lines.push(`[debug] ${m}`); }
  info(m: string) { this.lines.push(`[info] ${m}`); }
  warn(m: string) { this.lines.push(`[warn] ${m}`); }
  error(m: string | Error) { this.lines.push(`[error] ${String(m)}`); }
}

export interface FakeState {
  config: Record<string, unknown>;
  configReads: Set<string>;
  commands: Map<string, (...args: any[]) => unknown>;
  executed: Array<{ id: string; args: unknown[] }>;
  messages: Array<{ kind: 'info' | 'warning' | 'error'; text: string; items: string[] }>;
  /** What the next shown message resolves to (an item label or undefined). */
  messageAnswer: string | undefined;
  outputChannels: FakeOutputChannel[];
  statusItems: any[];
  clients: FakeLanguageClient[];
  tasksRun: any[];
  taskProviders: Map<string, any>;
  debugAdapterFactories: Map<string, any>;
  debugConfigProviders: Map<string, any>;
  configListeners: Array<Listener<any>>;
  workspaceFolders: any[] | undefined;
  activeTextEditor: any;
  openedDocuments: any[];
  savedAll: number;
}

export const state: FakeState = freshState();

function freshState(): FakeState {
  return {
    config: {},
    configReads: new Set(),
    commands: new Map(),
    executed: [],
    messages: [],
    messageAnswer: undefined,
    outputChannels: [],
    statusItems: [],
    clients: [],
    tasksRun: [],
    taskProviders: new Map(),
    debugAdapterFactories: new Map(),
    debugConfigProviders: new Map(),
    configListeners: [],
    workspaceFolders: undefined,
    activeTextEditor: undefined,
    openedDocuments: [],
    savedAll: 0,
  };
}

export function resetState(): void {
  Object.assign(state, freshState());
}

const disposable = () => ({ dispose() {} });

class Uri {
  constructor(public readonly scheme: string, public readonly fsPath: string) {}
  static file(p: string) { return new Uri('file', path.resolve(p)); }
  toString() { return `${this.scheme}://${this.fsPath}`; }
}

function message(kind: 'info' | 'warning' | 'error') {
  return (text: string, ...items: string[]) => {
    state.messages.push({ kind, text, items });
    return Promise.resolve(state.messageAnswer !== undefined && items.includes(state.messageAnswer) ? state.messageAnswer : undefined);
  };
}

export const fakeVscode: any = {
  EventEmitter,
  Uri,
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  TaskScope: { Global: 1, Workspace: 2 },
  TaskRevealKind: { Always: 1, Silent: 2, Never: 3 },
  TaskPanelKind: { Shared: 1, Dedicated: 2, New: 3 },
  TaskGroup: { Build: { id: 'build' }, Test: { id: 'test' }, Clean: { id: 'clean' }, Rebuild: { id: 'rebuild' } },
  ThemeColor: class { constructor(public readonly id: string) {} },
  Disposable: class { constructor(private readonly fn: () => void) {} dispose() { this.fn(); } },
  DebugAdapterExecutable: class { constructor(public readonly command: string, public readonly args: string[], public readonly options?: any) {} },
  ProcessExecution: class { constructor(public readonly process: string, public readonly args: string[], public readonly options?: any) {} },
  Task: class {
    group: any;
    presentationOptions: any;
    constructor(public definition: any, public scope: any, public name: string, public source: string, public execution: any, public problemMatchers: string[]) {}
  },
  window: {
    createOutputChannel: (name: string) => {
      const c = new FakeOutputChannel(name);
      state.outputChannels.push(c);
      return c;
    },
    createStatusBarItem: (id: string, alignment: number, priority: number) => {
      const item: any = { id, alignment, priority, text: '', tooltip: '', visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} };
      state.statusItems.push(item);
      return item;
    },
    showInformationMessage: message('info'),
    showWarningMessage: message('warning'),
    showErrorMessage: message('error'),
    get activeTextEditor() { return state.activeTextEditor; },
    showTextDocument: async (doc: any) => ({ document: doc }),
    withProgress: (_opts: unknown, task: () => Promise<unknown>) => task(),
  },
  workspace: {
    getConfiguration: (section?: string) => ({
      get: (key: string, dflt?: unknown) => {
        const full = section !== undefined ? `${section}.${key}` : key;
        state.configReads.add(full);
        return full in state.config ? state.config[full] : dflt;
      },
      has: (key: string) => `${section}.${key}` in state.config,
      inspect: () => undefined,
      update: async () => undefined,
    }),
    get workspaceFolders() { return state.workspaceFolders; },
    getWorkspaceFolder: (uri: Uri) => state.workspaceFolders?.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + path.sep)),
    onDidChangeConfiguration: (l: Listener<any>) => {
      state.configListeners.push(l);
      return disposable();
    },
    onDidGrantWorkspaceTrust: () => disposable(),
    createFileSystemWatcher: () => ({ dispose() {}, onDidChange: disposable, onDidCreate: disposable, onDidDelete: disposable }),
    saveAll: async () => {
      state.savedAll++;
      return true;
    },
    openTextDocument: async (opts: any) => {
      state.openedDocuments.push(opts);
      return opts;
    },
  },
  commands: {
    registerCommand: (id: string, fn: (...args: any[]) => unknown) => {
      if (state.commands.has(id)) throw new Error(`command ${id} registered twice`);
      state.commands.set(id, fn);
      return { dispose: () => state.commands.delete(id) };
    },
    executeCommand: async (id: string, ...args: unknown[]) => {
      state.executed.push({ id, args });
      const fn = state.commands.get(id);
      return fn !== undefined ? fn(...args) : undefined;
    },
  },
  debug: {
    registerDebugAdapterDescriptorFactory: (type: string, factory: any) => {
      state.debugAdapterFactories.set(type, factory);
      return { dispose: () => state.debugAdapterFactories.delete(type) };
    },
    registerDebugConfigurationProvider: (type: string, provider: any) => {
      state.debugConfigProviders.set(type, provider);
      return { dispose: () => state.debugConfigProviders.delete(type) };
    },
  },
  tasks: {
    registerTaskProvider: (type: string, provider: any) => {
      state.taskProviders.set(type, provider);
      return disposable();
    },
    executeTask: async (task: any) => {
      state.tasksRun.push(task);
      return {};
    },
  },
};

// ---- vscode-languageclient/node -----------------------------------------------------------

export const LcState = { Stopped: 1, Running: 2, Starting: 3 };

export class FakeLanguageClient {
  readonly stateEmitter = new EventEmitter<{ oldState: number; newState: number }>();
  readonly onDidChangeState = this.stateEmitter.event;
  started = 0;
  disposed = false;
  traceLevelAtStart: number | undefined;
  /** Set by a test to make start() fail. */
  failStart: Error | undefined;

  constructor(
    public readonly id: string,
    public readonly name: string,
    public readonly serverOptions: any,
    public readonly clientOptions: any,
  ) {
    state.clients.push(this);
  }

  async start(): Promise<void> {
    this.started++;
    // Like the real client: the trace channel's log level decides whether to trace.
    this.traceLevelAtStart = this.clientOptions.traceOutputChannel?.logLevel;
    this.stateEmitter.fire({ oldState: LcState.Stopped, newState: LcState.Starting });
    await Promise.resolve();
    if (this.failStart !== undefined) throw this.failStart;
    this.stateEmitter.fire({ oldState: LcState.Starting, newState: LcState.Running });
  }

  async stop(): Promise<void> {
    this.stateEmitter.fire({ oldState: LcState.Running, newState: LcState.Stopped });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stop();
  }

  /** Simulates the server process dying: the real client asks the error handler. */
  crash(): any {
    return this.clientOptions.errorHandler.closed();
  }
}

export const fakeLanguageClient: any = {
  LanguageClient: FakeLanguageClient,
  State: LcState,
  CloseAction: { DoNotRestart: 1, Restart: 2 },
  ErrorAction: { Continue: 1, Shutdown: 2 },
  TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 },
  RevealOutputChannelOn: { Debug: 0, Info: 1, Warn: 2, Error: 3, Never: 4 },
  Trace: { Off: 'off', Messages: 'messages', Verbose: 'verbose' },
};

let installed = false;

/** Routes `require('vscode')` and `require('vscode-languageclient/node')` to the fakes. */
export function installFakes(): void {
  if (installed) return;
  installed = true;
  const mod = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = mod._load;
  mod._load = function (request: string, parent: unknown, isMain: boolean) {
    if (request === 'vscode') return fakeVscode;
    if (request === 'vscode-languageclient/node') return fakeLanguageClient;
    return original.call(this, request, parent, isMain);
  };
}

export function fakeContext(extensionPath: string): any {
  return { subscriptions: [] as Array<{ dispose(): unknown }>, extensionPath };
}

export function folder(p: string, index = 0): any {
  return { uri: Uri.file(p), name: path.basename(p), index };
}

export function editorFor(file: string): any {
  return { document: { uri: Uri.file(file), languageId: 'fitz', isUntitled: false, isDirty: false, save: async () => true } };
}

export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

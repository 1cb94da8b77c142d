// Runs `fitz lsp` through vscode-languageclient, restarts it with back-off when it crashes, and
// keeps the status bar item in step.
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { CrashPolicy } from './backoff';
import { resolveFitzBinary } from './config';
import { ServerState, statusPresentation } from './status';
import { TraceOutputChannel } from './traceChannel';

export const CLIENT_ID = 'fitz'; // also makes the client honour `fitz.trace.server`
export const CLIENT_NAME = 'Fitz Language Server';

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('fitz.server', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Fitz Language Server';
    this.item.command = 'fitz.restartServer';
    this.update('stopped');
    this.item.show();
  }

  update(state: ServerState, detail?: string): void {
    const p = statusPresentation(state, detail);
    this.item.text = p.text;
    this.item.tooltip = p.tooltip;
    this.item.backgroundColor = p.error
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : p.warning
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}

export class FitzServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private generation = 0;
  private crashedGeneration = -1;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly policy = new CrashPolicy();
  private stateValue: ServerState = 'stopped';
  private disposed = false;
  private notFoundShown = false;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly trace: TraceOutputChannel,
    private readonly status: StatusItem,
  ) {}

  get state(): ServerState {
    return this.stateValue;
  }

  get languageClient(): LanguageClient | undefined {
    return this.client;
  }

  /** Starts (or starts again) the server with the binary resolved right now. */
  async start(): Promise<void> {
    if (this.disposed) return;
    this.clearRestartTimer();
    const generation = ++this.generation;
    await this.disposeClient();
    if (generation !== this.generation) return; // a newer start() took over meanwhile

    const resolved = resolveFitzBinary(this.context);
    if (!resolved.ok) {
      this.setState('notFound', resolved.reason);
      this.log.warn(`${resolved.reason}; looked at:\n  ${resolved.tried.join('\n  ')}`);
      if (!this.notFoundShown) {
        this.notFoundShown = true;
        void vscode.window
          .showWarningMessage(`Fitz: ${resolved.reason}.`, 'Open Settings', 'Show Log')
          .then((choice) => {
            if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'fitz.serverPath');
            if (choice === 'Show Log') this.log.show(true);
          });
      }
      return;
    }

    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const serverOptions: ServerOptions = {
      command: resolved.path,
      args: ['lsp'],
      transport: TransportKind.stdio,
      options: folder !== undefined ? { cwd: folder.uri.fsPath } : {},
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'fitz' },
        { scheme: 'untitled', language: 'fitz' },
        { scheme: 'file', language: 'fitzv' },
        { scheme: 'untitled', language: 'fitzv' },
      ],
      outputChannel: this.log,
      traceOutputChannel: this.trace,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.fitz,*.fitzv,fitz.toml}'),
      },
      initializationFailedHandler: () => false,
      errorHandler: {
        error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown }),
        closed: () => {
          this.crashed(generation, 'the server process exited');
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
    };

    this.setState('starting', `${resolved.path} (from ${describeSource(resolved.source)})`);
    this.log.info(`starting ${resolved.path} lsp (from ${describeSource(resolved.source)})`);
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      if (generation !== this.generation) return;
      if (e.newState === State.Running) this.setState('ready', resolved.path);
    });
    this.policy.started(Date.now());
    try {
      await client.start();
    } catch (error) {
      this.crashed(generation, `it failed to start: ${errorMessage(error)}`);
    }
  }

  /** Restart asked for by the user (command, status bar click): forget earlier crashes. */
  async restart(): Promise<void> {
    this.policy.reset();
    this.notFoundShown = false;
    await this.start();
  }

  async stop(): Promise<void> {
    this.generation++;
    this.clearRestartTimer();
    await this.disposeClient();
    this.setState('stopped');
  }

  dispose(): void {
    void this.stop();
    this.disposed = true;
    this.stateEmitter.dispose();
  }

  private crashed(generation: number, why: string): void {
    if (this.disposed || generation !== this.generation || this.crashedGeneration === generation) return;
    this.crashedGeneration = generation;
    const decision = this.policy.crashed(Date.now());
    this.log.error(`fitz lsp stopped: ${why}`);
    if (decision.restart) {
      const seconds = (decision.delayMs / 1000).toFixed(1);
      this.setState('restarting', `crash ${decision.crashesInARow} in a row; restarting in ${seconds} s`);
      this.log.info(`restarting in ${seconds} s`);
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        void this.start();
      }, decision.delayMs);
      return;
    }
    const n = decision.crashesInARow;
    this.setState('crashed', `it crashed ${n} times in a row; not restarting`);
    void vscode.window
      .showErrorMessage(`The Fitz language server crashed ${n} times in a row and will not be restarted automatically.`, 'Open Log', 'Restart')
      .then((choice) => {
        if (choice === 'Open Log') this.log.show(true);
        if (choice === 'Restart') void this.restart();
      });
  }

  private setState(state: ServerState, detail?: string): void {
    this.stateValue = state;
    this.status.update(state, detail);
    this.stateEmitter.fire(state);
  }

  private clearRestartTimer(): void {
    if (this.restartTimer !== undefined) {
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
    }
  }

  private async disposeClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    try {
      await client.dispose(2000);
    } catch (error) {
      this.log.debug(`stopping the previous client: ${errorMessage(error)}`);
    }
  }
}

function describeSource(source: string): string {
  switch (source) {
    case 'setting':
      return 'fitz.serverPath';
    case 'bundled':
      return 'the extension';
    default:
      return 'PATH';
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

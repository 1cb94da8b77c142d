// Entry point: starts `fitz lsp`, registers the commands, tasks, debugger and status bar item.
import * as vscode from 'vscode';
import { registerCliCommands } from './commands';
import { SECTION, traceSetting } from './config';
import { registerDebugger } from './debug';
import { FitzServer, StatusItem } from './server';
import { TraceOutputChannel } from './traceChannel';

let server: FitzServer | undefined;

export interface FitzExtensionApi {
  /** The running language-server manager (used by tests). */
  readonly server: FitzServer;
}

export function activate(context: vscode.ExtensionContext): FitzExtensionApi {
  const log = vscode.window.createOutputChannel('Fitz', { log: true });
  const trace = new TraceOutputChannel(vscode.window.createOutputChannel('Fitz Language Server Trace'), traceSetting);
  const status = new StatusItem();
  const fitzServer = new FitzServer(context, log, trace, status);
  server = fitzServer;

  context.subscriptions.push(
    log,
    trace,
    status,
    fitzServer,
    vscode.commands.registerCommand('fitz.restartServer', () => fitzServer.restart()),
    ...registerCliCommands(context, log),
    ...registerDebugger(context, log),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.serverPath`)) void fitzServer.restart();
      if (e.affectsConfiguration(`${SECTION}.trace.server`)) trace.settingChanged();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void fitzServer.restart()),
  );

  // Not awaited: activation must not wait for the server's initialize round trip.
  void fitzServer.start();
  return { server: fitzServer };
}

export async function deactivate(): Promise<void> {
  const s = server;
  server = undefined;
  if (s !== undefined) await s.stop();
}

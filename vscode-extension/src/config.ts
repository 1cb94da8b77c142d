// Every `fitz.*` setting is read here (the manifest test checks that each contributed setting
// appears in the compiled code).
import * as os from 'node:os';
import * as vscode from 'vscode';
import { resolveServerPath, ResolveResult } from './serverPath';

export const SECTION = 'fitz';

export type TraceSetting = 'off' | 'messages' | 'verbose';

export function serverPathSetting(): string {
  return vscode.workspace.getConfiguration(SECTION).get<string>('serverPath', '') ?? '';
}

export function traceSetting(): TraceSetting {
  const value = vscode.workspace.getConfiguration(SECTION).get<string>('trace.server', 'off');
  return value === 'messages' || value === 'verbose' ? value : 'off';
}

/** Resolves the `fitz` binary for the language server and for the CLI commands alike. */
export function resolveFitzBinary(context: vscode.ExtensionContext): ResolveResult {
  return resolveServerPath({
    setting: serverPathSetting(),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    extensionPath: context.extensionPath,
    homeDir: os.homedir(),
  });
}

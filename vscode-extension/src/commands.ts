// The CLI-backed commands: check, build, run, test and bench run as VS Code tasks (in the
// terminal panel, diagnostics picked up by the `$fitz` problem matcher); "Show Generated C++"
// captures `fitz build --emit=cpp FILE -o -` and opens the result in a C++ editor.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CliCommand, cliInvocation, CliContext, COMMAND_IDS, displayCommandLine, findProjectRoot, Invocation } from './cli';
import { resolveFitzBinary } from './config';
import { errorMessage } from './server';

export const TASK_TYPE = 'fitz';
type TaskCommand = Exclude<CliCommand, 'showGeneratedCpp'>;
const TASK_COMMANDS: readonly TaskCommand[] = ['check', 'build', 'run', 'test', 'bench'];

interface FitzTaskDefinition extends vscode.TaskDefinition {
  command: TaskCommand;
  /** A .fitz file; omitted for the project around the workspace folder. */
  file?: string;
}

/** Works out the file and project that a command applies to from the editor and workspace. */
export function currentContext(): CliContext {
  const editor = vscode.window.activeTextEditor;
  const doc = editor?.document;
  const file = doc !== undefined && doc.languageId === 'fitz' && doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined;
  const folderUri = (doc !== undefined ? vscode.workspace.getWorkspaceFolder(doc.uri)?.uri : undefined) ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const folder = folderUri?.scheme === 'file' ? folderUri.fsPath : undefined;
  const projectRoot = file !== undefined ? findProjectRoot(file) : folder !== undefined ? findProjectRoot(folder, undefined, folder) : undefined;
  return { file, projectRoot, workspaceFolder: folder };
}

function binaryOrComplain(context: vscode.ExtensionContext): string | undefined {
  const resolved = resolveFitzBinary(context);
  if (resolved.ok) return resolved.path;
  void vscode.window.showErrorMessage(`Fitz: ${resolved.reason}.`, 'Open Settings').then((choice) => {
    if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'fitz.serverPath');
  });
  return undefined;
}

export function makeTask(
  binary: string,
  command: TaskCommand,
  invocation: Invocation,
  scope: vscode.WorkspaceFolder | vscode.TaskScope,
  definition?: FitzTaskDefinition,
): vscode.Task {
  const def: FitzTaskDefinition = definition ?? { type: TASK_TYPE, command };
  const task = new vscode.Task(
    def,
    scope,
    invocation.label,
    'fitz',
    // The `$fitz` problem matcher counts columns in UTF-16 units, as VS Code does everywhere;
    // fitz's text output counts Unicode scalars unless told otherwise.
    new vscode.ProcessExecution(binary, invocation.args, {
      cwd: invocation.cwd,
      env: { FITZ_DIAGNOSTIC_COLUMNS: 'utf16' },
    }),
    ['$fitz'],
  );
  if (command === 'build' || command === 'check') task.group = vscode.TaskGroup.Build;
  if (command === 'test') task.group = vscode.TaskGroup.Test;
  task.presentationOptions = {
    reveal: vscode.TaskRevealKind.Always,
    panel: command === 'run' ? vscode.TaskPanelKind.Dedicated : vscode.TaskPanelKind.Shared,
    clear: true,
    showReuseMessage: false,
  };
  return task;
}

async function runCliTask(context: vscode.ExtensionContext, command: TaskCommand): Promise<void> {
  await vscode.workspace.saveAll(false);
  const ctx = currentContext();
  const result = cliInvocation(command, ctx);
  if (!result.ok) {
    void vscode.window.showErrorMessage(`Fitz: ${result.reason}.`);
    return;
  }
  const binary = binaryOrComplain(context);
  if (binary === undefined) return;
  const scope = scopeFor(result.invocation.cwd);
  const def: FitzTaskDefinition = { type: TASK_TYPE, command, ...(result.invocation.mode === 'file' && ctx.file !== undefined ? { file: ctx.file } : {}) };
  await vscode.tasks.executeTask(makeTask(binary, command, result.invocation, scope, def));
}

function scopeFor(dir: string): vscode.WorkspaceFolder | vscode.TaskScope {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir)) ?? vscode.TaskScope.Workspace;
}

async function showGeneratedCpp(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<void> {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc === undefined || doc.languageId !== 'fitz') {
    void vscode.window.showErrorMessage('Fitz: open a .fitz file to see its generated C++.');
    return;
  }
  if (doc.isUntitled || doc.uri.scheme !== 'file') {
    void vscode.window.showErrorMessage('Fitz: save the file first; the generated C++ is built from the file on disk.');
    return;
  }
  if (doc.isDirty && !(await doc.save())) return;
  const result = cliInvocation('showGeneratedCpp', { file: doc.uri.fsPath, projectRoot: findProjectRoot(doc.uri.fsPath) });
  if (!result.ok) {
    void vscode.window.showErrorMessage(`Fitz: ${result.reason}.`);
    return;
  }
  const binary = binaryOrComplain(context);
  if (binary === undefined) return;
  const { args, cwd } = result.invocation;
  log.info(`running ${displayCommandLine(binary, args)} in ${cwd}`);
  const output = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Fitz: generating C++' },
    () =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(binary, args, { cwd, maxBuffer: 256 * 1024 * 1024, timeout: 120_000, windowsHide: true }, (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof (error as NodeJS.ErrnoException).code === 'number' ? Number((error as NodeJS.ErrnoException).code) : -1;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error !== null && code === -1 ? errorMessage(error) : '') });
        });
      }),
  );
  if (output.code !== 0) {
    log.error(`fitz build --emit=cpp exited with ${output.code}:\n${output.stderr}`);
    const choice = await vscode.window.showErrorMessage(
      `Fitz: could not generate C++ for ${path.basename(doc.uri.fsPath)} (exit ${output.code}).`,
      'Show Log',
    );
    if (choice === 'Show Log') log.show(true);
    return;
  }
  const cpp = await vscode.workspace.openTextDocument({ language: 'cpp', content: output.stdout });
  await vscode.window.showTextDocument(cpp, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

/** Tasks for the Tasks: Run Task picker and for `"type": "fitz"` entries in tasks.json. */
export class FitzTaskProvider implements vscode.TaskProvider {
  constructor(private readonly context: vscode.ExtensionContext) {}

  provideTasks(): vscode.Task[] {
    const resolved = resolveFitzBinary(this.context);
    if (!resolved.ok) return [];
    const tasks: vscode.Task[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const root = findProjectRoot(folder.uri.fsPath, undefined, folder.uri.fsPath);
      if (root === undefined) continue;
      for (const command of TASK_COMMANDS) {
        const r = cliInvocation(command, { projectRoot: root });
        if (r.ok) tasks.push(makeTask(resolved.path, command, r.invocation, folder));
      }
    }
    return tasks;
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const def = task.definition as FitzTaskDefinition;
    if (!TASK_COMMANDS.includes(def.command)) return undefined;
    const resolved = resolveFitzBinary(this.context);
    if (!resolved.ok) return undefined;
    const folder = typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
    const base = folder?.uri.fsPath;
    const file = def.file !== undefined && base !== undefined ? path.resolve(base, def.file) : def.file;
    const root = file !== undefined ? findProjectRoot(file) : base !== undefined ? findProjectRoot(base, undefined, base) : undefined;
    const r = cliInvocation(def.command, { file, projectRoot: def.file !== undefined ? undefined : root, workspaceFolder: base });
    if (!r.ok) return undefined;
    return makeTask(resolved.path, def.command, r.invocation, task.scope ?? vscode.TaskScope.Workspace, def);
  }
}

export function registerCliCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const disposables: vscode.Disposable[] = TASK_COMMANDS.map((command) =>
    vscode.commands.registerCommand(COMMAND_IDS[command], () => runCliTask(context, command)),
  );
  disposables.push(vscode.commands.registerCommand(COMMAND_IDS.showGeneratedCpp, () => showGeneratedCpp(context, log)));
  disposables.push(vscode.tasks.registerTaskProvider(TASK_TYPE, new FitzTaskProvider(context)));
  return disposables;
}

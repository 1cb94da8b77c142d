// Maps the extension's commands to `fitz` command lines. Pure logic (no `vscode` import).
import * as fs from 'node:fs';
import * as path from 'node:path';

export type CliCommand = 'check' | 'build' | 'run' | 'test' | 'bench' | 'showGeneratedCpp';

export const CLI_COMMANDS: readonly CliCommand[] = ['check', 'build', 'run', 'test', 'bench', 'showGeneratedCpp'];

/** The VS Code command id of each CLI-backed command. */
export const COMMAND_IDS: Readonly<Record<CliCommand, string>> = {
  check: 'fitz.check',
  build: 'fitz.build',
  run: 'fitz.run',
  test: 'fitz.test',
  bench: 'fitz.bench',
  showGeneratedCpp: 'fitz.showGeneratedCpp',
};

export interface CliContext {
  /** Absolute path of the active `.fitz` file, when there is one (saved on disk). */
  file?: string;
  /** Folder holding the `fitz.toml` that governs `file` (or the workspace), if any. */
  projectRoot?: string;
  /** The workspace folder to fall back on for `check` when there is neither. */
  workspaceFolder?: string;
}

export interface Invocation {
  args: string[];
  cwd: string;
  /** Short human label, e.g. "check src/main.fitz". */
  label: string;
  mode: 'project' | 'file' | 'folder';
}

export type InvocationResult = { ok: true; invocation: Invocation } | { ok: false; reason: string };

/** Walks up from `start` (a file or folder) to the nearest folder holding `fitz.toml`. */
export function findProjectRoot(
  start: string,
  exists: (file: string) => boolean = (f) => fs.existsSync(f),
  stopAt?: string,
): string | undefined {
  let dir = path.resolve(start);
  if (dir.endsWith('.fitz')) dir = path.dirname(dir);
  const stop = stopAt === undefined ? undefined : path.resolve(stopAt);
  for (;;) {
    if (exists(path.join(dir, 'fitz.toml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir || (stop !== undefined && dir === stop)) return undefined;
    dir = parent;
  }
}

const NEEDS_SOMETHING = 'open a .fitz file or a folder with a fitz.toml first';

/** True when `inner` is `outer` or lies below it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The command line for each command. Project mode (a `fitz.toml` was found) wins over the
 * active file, like `fitz` itself, which walks up to the manifest when given no file.
 *
 * | command          | project                | single file                           |
 * |------------------|------------------------|---------------------------------------|
 * | check            | check ROOT             | check FILE   (folder: check FOLDER)   |
 * | build            | build                  | build FILE                            |
 * | run              | run                    | run FILE                              |
 * | test             | test                   | test --file FILE                      |
 * | bench            | bench                  | bench FILE                            |
 * | showGeneratedCpp | build --emit=cpp FILE -o -  (always the active file)           |
 *
 * Paths in arguments are absolute. fitz prints a diagnostic's path relative to its working
 * directory when the file lies below it (else absolute), and the `$fitz` problem matcher
 * resolves relative paths against the workspace folder; so commands run in the workspace
 * folder whenever that still lets fitz find what it needs:
 * - check, and every single-file command: in the workspace folder when the target lies in it,
 *   else in the project root or the file's folder;
 * - build, run, test, bench of a project: fitz walks up from its working directory to
 *   `fitz.toml`, so they run in the workspace folder when it lies inside the project (or is
 *   its root), else in the project root.
 */
export function cliInvocation(command: CliCommand, ctx: CliContext): InvocationResult {
  const { file, projectRoot, workspaceFolder } = ctx;
  const fileLabel = (f: string) => (projectRoot !== undefined ? path.relative(projectRoot, f) : path.basename(f));
  const inFolder = (target: string) => workspaceFolder !== undefined && isWithin(target, workspaceFolder);

  if (command === 'showGeneratedCpp') {
    if (file === undefined) return { ok: false, reason: 'open a saved .fitz file to see its generated C++' };
    return ok(['build', '--emit=cpp', file, '-o', '-'], path.dirname(file), `build --emit=cpp ${fileLabel(file)}`, 'file');
  }

  if (projectRoot !== undefined) {
    if (command === 'check') {
      return ok(['check', projectRoot], inFolder(projectRoot) ? workspaceFolder! : projectRoot, 'check', 'project');
    }
    const cwd = workspaceFolder !== undefined && isWithin(workspaceFolder, projectRoot) ? workspaceFolder : projectRoot;
    return ok([command], cwd, command, 'project');
  }

  if (file !== undefined) {
    const cwd = inFolder(file) ? workspaceFolder! : path.dirname(file);
    const label = `${command} ${fileLabel(file)}`;
    switch (command) {
      case 'test':
        return ok(['test', '--file', file], cwd, label, 'file');
      default:
        return ok([command, file], cwd, label, 'file');
    }
  }

  if (command === 'check' && workspaceFolder !== undefined) {
    return ok(['check', workspaceFolder], workspaceFolder, `check ${path.basename(workspaceFolder)}`, 'folder');
  }
  return { ok: false, reason: NEEDS_SOMETHING };
}

function ok(args: string[], cwd: string, label: string, mode: Invocation['mode']): InvocationResult {
  return { ok: true, invocation: { args, cwd, label, mode } };
}

/** Quotes an argument for display in logs (never passed to a shell). */
export function displayCommandLine(binary: string, args: readonly string[]): string {
  return [binary, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

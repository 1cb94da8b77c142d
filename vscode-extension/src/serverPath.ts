// Finds the `fitz` binary that serves `fitz lsp` and runs the CLI commands.
// Pure logic (no `vscode` import) so it can be unit-tested in plain node.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type ServerSource = 'setting' | 'bundled' | 'path';

export interface ResolveInput {
  /** The `fitz.serverPath` setting; empty or undefined means "not set". */
  setting?: string | null;
  /** Absolute paths of the open workspace folders, first one first. */
  workspaceFolders: readonly string[];
  /** Absolute path of the installed extension (the folder holding package.json). */
  extensionPath: string;
  /** The PATH to search; defaults to process.env.PATH. */
  envPath?: string;
  /** PATHEXT on Windows; defaults to process.env.PATHEXT. */
  pathExt?: string;
  platform?: NodeJS.Platform;
  homeDir?: string;
  /** True when the path names an executable regular file. Injectable for tests. */
  isExecutable?: (file: string) => boolean;
}

export type ResolveResult =
  | { ok: true; path: string; source: ServerSource }
  | { ok: false; source: ServerSource | 'none'; tried: string[]; reason: string };

export function defaultIsExecutable(file: string): boolean {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function pathModule(platform: NodeJS.Platform): typeof path.posix {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Candidate file names for a bare command name (adds PATHEXT suffixes on Windows). */
export function executableNames(name: string, platform: NodeJS.Platform, pathExt?: string): string[] {
  if (platform !== 'win32') return [name];
  const exts = (pathExt ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e.length > 0);
  if (exts.some((e) => name.toLowerCase().endsWith(e.toLowerCase()))) return [name];
  return [name, ...exts.map((e) => name + e.toLowerCase())];
}

/** Looks `name` up on PATH; returns every candidate tried and the first executable one. */
export function lookupOnPath(
  name: string,
  envPath: string,
  platform: NodeJS.Platform,
  isExecutable: (file: string) => boolean,
  pathExt?: string,
): { found?: string; tried: string[] } {
  const p = pathModule(platform);
  const sep = platform === 'win32' ? ';' : ':';
  const tried: string[] = [];
  for (const dir of envPath.split(sep)) {
    if (dir.length === 0) continue;
    for (const candidate of executableNames(name, platform, pathExt)) {
      const full = p.join(dir, candidate);
      tried.push(full);
      if (isExecutable(full)) return { found: full, tried };
    }
  }
  return { tried };
}

function hasSeparator(value: string, platform: NodeJS.Platform): boolean {
  return value.includes('/') || (platform === 'win32' && value.includes('\\'));
}

/**
 * Resolution order:
 *  1. the `fitz.serverPath` setting when set: an absolute path (`~` and `${workspaceFolder}`
 *     expanded), a path relative to a workspace folder when it contains a separator, otherwise
 *     a command name looked up on PATH. A setting that does not resolve is an error: we never
 *     silently run a different binary than the one the user asked for;
 *  2. the binary bundled in the extension at `server/fitz` (`server/fitz.exe` on Windows);
 *  3. `fitz` on PATH.
 */
export function resolveServerPath(input: ResolveInput): ResolveResult {
  const platform = input.platform ?? process.platform;
  const p = pathModule(platform);
  const isExecutable = input.isExecutable ?? defaultIsExecutable;
  const envPath = input.envPath ?? process.env.PATH ?? '';
  const pathExt = input.pathExt ?? process.env.PATHEXT;
  const setting = (input.setting ?? '').trim();

  if (setting.length > 0) {
    let value = setting;
    const firstFolder = input.workspaceFolders[0];
    if (value.includes('${workspaceFolder}')) {
      if (firstFolder === undefined) {
        return { ok: false, source: 'setting', tried: [], reason: `fitz.serverPath uses \${workspaceFolder} but no folder is open` };
      }
      value = value.split('${workspaceFolder}').join(firstFolder);
    }
    if (input.homeDir !== undefined && (value === '~' || value.startsWith('~/') || value.startsWith('~\\'))) {
      value = p.join(input.homeDir, value.slice(1));
    }
    if (p.isAbsolute(value)) {
      if (isExecutable(value)) return { ok: true, path: value, source: 'setting' };
      return { ok: false, source: 'setting', tried: [value], reason: `fitz.serverPath is ${value}, which is not an executable file` };
    }
    if (hasSeparator(value, platform)) {
      const tried: string[] = [];
      for (const folder of input.workspaceFolders) {
        const full = p.resolve(folder, value);
        tried.push(full);
        if (isExecutable(full)) return { ok: true, path: full, source: 'setting' };
      }
      const reason = input.workspaceFolders.length === 0
        ? `fitz.serverPath ${value} is relative but no workspace folder is open`
        : `fitz.serverPath ${value} is not an executable file in any workspace folder`;
      return { ok: false, source: 'setting', tried, reason };
    }
    const hit = lookupOnPath(value, envPath, platform, isExecutable, pathExt);
    if (hit.found !== undefined) return { ok: true, path: hit.found, source: 'setting' };
    return { ok: false, source: 'setting', tried: hit.tried, reason: `fitz.serverPath ${value} was not found on PATH` };
  }

  const tried: string[] = [];
  const bundled = p.join(input.extensionPath, 'server', platform === 'win32' ? 'fitz.exe' : 'fitz');
  tried.push(bundled);
  if (isExecutable(bundled)) return { ok: true, path: bundled, source: 'bundled' };

  const hit = lookupOnPath('fitz', envPath, platform, isExecutable, pathExt);
  tried.push(...hit.tried);
  if (hit.found !== undefined) return { ok: true, path: hit.found, source: 'path' };
  return {
    ok: false,
    source: 'none',
    tried,
    reason: 'no fitz binary found: set fitz.serverPath, or put fitz on PATH',
  };
}

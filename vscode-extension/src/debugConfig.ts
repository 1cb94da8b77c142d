// What a `fitz` debug configuration means: the adapter is `fitz debug --dap` (which builds the
// program with debug info and runs LLDB's adapter with the Fitz formatters), and a
// configuration without a program debugs the active file or its project.
// Pure logic (no `vscode` import) so it can be unit-tested in plain node.
import * as path from 'node:path';
import { CliContext } from './cli';

export const DEBUG_TYPE = 'fitz';

/** The arguments of the fitz binary that speaks the Debug Adapter Protocol on stdio. */
export const DEBUG_ADAPTER_ARGS: readonly string[] = ['debug', '--dap'];

export interface FitzDebugConfiguration {
  type: string;
  request: string;
  name: string;
  /** A .fitz file, a project directory or an already built binary. */
  program?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  [key: string]: unknown;
}

export type DebugConfigResult = { ok: true; config: FitzDebugConfiguration } | { ok: false; reason: string };

/**
 * Fills in a launch configuration: F5 without a launch.json (an empty configuration) debugs
 * the active .fitz file, or the project around it; `cwd` defaults to the project root, else
 * the program's folder.
 */
export function resolveDebugConfiguration(given: Partial<FitzDebugConfiguration>, ctx: CliContext): DebugConfigResult {
  const config: FitzDebugConfiguration = {
    ...given,
    type: given.type ?? DEBUG_TYPE,
    request: given.request ?? 'launch',
    name: given.name ?? '',
  };
  if (config.request !== 'launch') return { ok: false, reason: `a fitz debug configuration must have "request": "launch"` };
  if (config.program === undefined || config.program === '') {
    const program = ctx.projectRoot ?? ctx.file;
    if (program === undefined) return { ok: false, reason: 'open a .fitz file or a folder with a fitz.toml to debug it' };
    config.program = program;
  }
  if (config.name === '') config.name = `Debug ${path.basename(config.program)}`;
  if (config.cwd === undefined) {
    config.cwd = ctx.projectRoot ?? (config.program.endsWith('.fitz') ? path.dirname(config.program) : ctx.workspaceFolder);
  }
  if (config.args === undefined) config.args = [];
  return { ok: true, config };
}

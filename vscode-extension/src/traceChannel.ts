// The language client writes protocol traces to a LogOutputChannel and enables tracing only
// while that channel's log level is Trace. This adapter makes the `fitz.trace.server` setting
// decide instead: its log level is Trace unless the setting is "off", and every trace line is
// written to a plain output channel.
import * as vscode from 'vscode';
import { TraceSetting } from './config';

export class TraceOutputChannel implements vscode.LogOutputChannel {
  private readonly levelEmitter = new vscode.EventEmitter<vscode.LogLevel>();
  readonly onDidChangeLogLevel = this.levelEmitter.event;

  constructor(
    private readonly base: vscode.OutputChannel,
    private readonly setting: () => TraceSetting,
  ) {}

  get name(): string {
    return this.base.name;
  }

  get logLevel(): vscode.LogLevel {
    return this.setting() === 'off' ? vscode.LogLevel.Info : vscode.LogLevel.Trace;
  }

  /** Call when `fitz.trace.server` changed. */
  settingChanged(): void {
    this.levelEmitter.fire(this.logLevel);
  }

  trace(message: string, ...args: unknown[]): void {
    this.write('trace', message, args);
  }
  debug(message: string, ...args: unknown[]): void {
    this.write('debug', message, args);
  }
  info(message: string, ...args: unknown[]): void {
    this.write('info', message, args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.write('warning', message, args);
  }
  error(error: string | Error, ...args: unknown[]): void {
    this.write('error', typeof error === 'string' ? error : error.stack ?? error.message, args);
  }

  append(value: string): void {
    this.base.append(value);
  }
  appendLine(value: string): void {
    this.base.appendLine(value);
  }
  replace(value: string): void {
    this.base.replace(value);
  }
  clear(): void {
    this.base.clear();
  }
  show(columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserveFocus === 'boolean' || columnOrPreserveFocus === undefined) {
      this.base.show(columnOrPreserveFocus);
    } else {
      this.base.show(columnOrPreserveFocus, preserveFocus);
    }
  }
  hide(): void {
    this.base.hide();
  }
  dispose(): void {
    this.levelEmitter.dispose();
    this.base.dispose();
  }

  private write(level: string, message: string, args: unknown[]): void {
    const extra = args.length > 0 ? ' ' + args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : '';
    this.base.appendLine(level === 'trace' ? message + extra : `[${level}] ${message}${extra}`);
  }
}

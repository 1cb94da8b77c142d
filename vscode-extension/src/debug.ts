// The `fitz` debugger type: VS Code starts `fitz debug --dap` as the debug adapter and asks
// resolveDebugConfiguration (debugConfig.ts) to complete launch configurations.
import * as vscode from 'vscode';
import { currentContext } from './commands';
import { resolveFitzBinary } from './config';
import { DEBUG_ADAPTER_ARGS, DEBUG_TYPE, FitzDebugConfiguration, resolveDebugConfiguration } from './debugConfig';

export function registerDebugger(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const factory: vscode.DebugAdapterDescriptorFactory = {
    createDebugAdapterDescriptor() {
      const resolved = resolveFitzBinary(context);
      if (!resolved.ok) throw new Error(`Fitz: ${resolved.reason}`);
      log.info(`debug adapter: ${resolved.path} ${DEBUG_ADAPTER_ARGS.join(' ')}`);
      return new vscode.DebugAdapterExecutable(resolved.path, [...DEBUG_ADAPTER_ARGS]);
    },
  };
  const provider: vscode.DebugConfigurationProvider = {
    resolveDebugConfiguration(_folder, config) {
      const result = resolveDebugConfiguration(config as Partial<FitzDebugConfiguration>, currentContext());
      if (!result.ok) {
        void vscode.window.showErrorMessage(`Fitz: ${result.reason}.`);
        return undefined;
      }
      return result.config;
    },
  };
  return [
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, factory),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, provider),
  ];
}

// What the status bar item shows for each language-server state. Pure logic.

export type ServerState = 'starting' | 'ready' | 'restarting' | 'crashed' | 'notFound' | 'stopped';

export interface StatusPresentation {
  text: string;
  tooltip: string;
  /** Show with the error background colour. */
  error: boolean;
  warning: boolean;
}

export function statusPresentation(state: ServerState, detail?: string): StatusPresentation {
  const suffix = detail !== undefined && detail.length > 0 ? `\n${detail}` : '';
  const click = '\nClick to restart the language server.';
  switch (state) {
    case 'starting':
      return { text: '$(sync~spin) Fitz', tooltip: `Fitz: starting the language server${suffix}`, error: false, warning: false };
    case 'ready':
      return { text: '$(check) Fitz', tooltip: `Fitz: language server ready${suffix}${click}`, error: false, warning: false };
    case 'restarting':
      return { text: '$(sync~spin) Fitz', tooltip: `Fitz: the language server stopped; restarting${suffix}`, error: false, warning: true };
    case 'crashed':
      return { text: '$(error) Fitz', tooltip: `Fitz: the language server crashed${suffix}${click}`, error: true, warning: false };
    case 'notFound':
      return { text: '$(warning) Fitz: no server', tooltip: `Fitz: fitz binary not found${suffix}\nSet fitz.serverPath or put fitz on PATH.${click}`, error: false, warning: true };
    case 'stopped':
      return { text: '$(circle-slash) Fitz', tooltip: `Fitz: language server stopped${suffix}${click}`, error: false, warning: false };
  }
}

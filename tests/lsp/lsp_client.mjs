// A minimal LSP client over stdio for the transcript tests: spawns `fitz lsp`, frames messages
// with Content-Length by hand, matches responses to requests and collects notifications.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export class LspClient {
  constructor(bin, { cwd, args = [] } = {}) {
    this.child = spawn(bin, ['lsp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.buffer = Buffer.alloc(0);
    this.nextId = 1;
    this.pending = new Map();
    this.notifications = [];
    this.waiters = [];
    this.stderr = '';
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.child.stderr.on('data', (d) => (this.stderr += d.toString()));
    this.child.stdout.on('data', (d) => this.onData(d));
  }

  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (true) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const m = /content-length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error(`bad header from server: ${header}`);
      const length = Number(m[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(JSON.parse(body));
    }
  }

  dispatch(msg) {
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id) && !msg.method) {
      const { resolve } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      resolve(msg);
      return;
    }
    if (msg.method) {
      this.notifications.push(msg);
      for (const w of [...this.waiters]) {
        if (w.pred(msg)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
      return;
    }
    // A response without a matching request (e.g. to a malformed message): keep it visible.
    this.notifications.push(msg);
    for (const w of [...this.waiters]) {
      if (w.pred(msg)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(msg);
      }
    }
  }

  writeRaw(bytes) {
    this.child.stdin.write(bytes);
  }

  send(msg) {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  // Resolves with the whole response message ({result} or {error}).
  request(method, params, timeoutMs = 20000) {
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timeout waiting for ${method}\n${this.stderr}`)), timeoutMs);
      this.pending.set(id, { resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
    this.send({ jsonrpc: '2.0', id, method, params });
    return p;
  }

  async call(method, params) {
    const r = await this.request(method, params);
    if (r.error) throw new Error(`${method} failed: ${JSON.stringify(r.error)}`);
    return r.result;
  }

  notify(method, params) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  // The first message (past or future) matching pred.
  waitFor(pred, timeoutMs = 20000, { fromIndex = 0 } = {}) {
    const seen = this.notifications.slice(fromIndex).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timeout waiting for a notification\n${this.stderr}`)), timeoutMs);
      this.waiters.push({ pred, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  diagnostics(uri, pred = () => true, opts) {
    return this.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && pred(m.params), undefined, opts).then((m) => m.params);
  }

  async initialize(rootPath) {
    const r = await this.call('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(rootPath).href,
      capabilities: { general: { positionEncodings: ['utf-16'] } },
    });
    this.notify('initialized', {});
    return r;
  }

  async shutdown() {
    await this.call('shutdown', null);
    this.notify('exit', null);
    return this.exited;
  }
}

export const uriOf = (p) => pathToFileURL(p).href;

// Unit tests of the modules that do not import `vscode`: server path resolution, crash
// back-off, command -> CLI argument mapping, debug configurations and status presentation.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelay, CrashPolicy, DEFAULT_BACKOFF } from '../src/backoff';
import { cliInvocation, CLI_COMMANDS, COMMAND_IDS, displayCommandLine, findProjectRoot, isWithin } from '../src/cli';
import { DEBUG_ADAPTER_ARGS, resolveDebugConfiguration } from '../src/debugConfig';
import { executableNames, lookupOnPath, resolveServerPath } from '../src/serverPath';
import { statusPresentation } from '../src/status';

function fakeFs(executables: string[]) {
  const set = new Set(executables);
  const seen: string[] = [];
  return {
    seen,
    isExecutable: (p: string) => {
      seen.push(p);
      return set.has(p);
    },
  };
}

const base = {
  workspaceFolders: ['/ws/app', '/ws/lib'],
  extensionPath: '/ext',
  envPath: '/usr/local/bin:/usr/bin',
  platform: 'linux' as NodeJS.Platform,
  homeDir: '/home/u',
};

describe('resolveServerPath: order setting -> bundled -> PATH', () => {
  it('uses an absolute setting first', () => {
    const fs = fakeFs(['/opt/fitz/bin/fitz', '/ext/server/fitz', '/usr/bin/fitz']);
    assert.deepEqual(resolveServerPath({ ...base, setting: '/opt/fitz/bin/fitz', isExecutable: fs.isExecutable }), {
      ok: true, path: '/opt/fitz/bin/fitz', source: 'setting',
    });
  });
  it('a setting with a separator is relative to the workspace folders, in order', () => {
    const fs = fakeFs(['/ws/lib/build/bin/fitz', '/usr/bin/fitz']);
    const r = resolveServerPath({ ...base, setting: 'build/bin/fitz', isExecutable: fs.isExecutable });
    assert.deepEqual(r, { ok: true, path: '/ws/lib/build/bin/fitz', source: 'setting' });
    assert.deepEqual(fs.seen, ['/ws/app/build/bin/fitz', '/ws/lib/build/bin/fitz']);
  });
  it('./fitz and ../x are relative too', () => {
    const fs = fakeFs(['/ws/tools/fitz']);
    const r = resolveServerPath({ ...base, workspaceFolders: ['/ws/app'], setting: '../tools/fitz', isExecutable: fs.isExecutable });
    assert.deepEqual(r, { ok: true, path: '/ws/tools/fitz', source: 'setting' });
  });
  it('a bare name in the setting is looked up on PATH', () => {
    const fs = fakeFs(['/usr/bin/fitz-nightly']);
    assert.deepEqual(resolveServerPath({ ...base, setting: 'fitz-nightly', isExecutable: fs.isExecutable }), {
      ok: true, path: '/usr/bin/fitz-nightly', source: 'setting',
    });
  });
  it('expands ~ and ${workspaceFolder}', () => {
    const fs = fakeFs(['/home/u/bin/fitz', '/ws/app/out/fitz']);
    assert.equal((resolveServerPath({ ...base, setting: '~/bin/fitz', isExecutable: fs.isExecutable }) as { path: string }).path, '/home/u/bin/fitz');
    assert.equal((resolveServerPath({ ...base, setting: '${workspaceFolder}/out/fitz', isExecutable: fs.isExecutable }) as { path: string }).path, '/ws/app/out/fitz');
  });
  it('a setting that does not resolve is an error, never a silent fallback', () => {
    const fs = fakeFs(['/ext/server/fitz', '/usr/bin/fitz']);
    const r = resolveServerPath({ ...base, setting: '/nope/fitz', isExecutable: fs.isExecutable });
    assert.equal(r.ok, false);
    assert.equal(r.source, 'setting');
    if (!r.ok) {
      assert.match(r.reason, /\/nope\/fitz/);
      assert.deepEqual(r.tried, ['/nope/fitz']);
    }
    const rel = resolveServerPath({ ...base, setting: 'build/fitz', isExecutable: fs.isExecutable });
    assert.equal(rel.ok, false);
    if (!rel.ok) assert.deepEqual(rel.tried, ['/ws/app/build/fitz', '/ws/lib/build/fitz']);
    const noFolder = resolveServerPath({ ...base, workspaceFolders: [], setting: 'build/fitz', isExecutable: fs.isExecutable });
    assert.equal(noFolder.ok, false);
    if (!noFolder.ok) assert.match(noFolder.reason, /no workspace folder/);
  });
  it('empty or blank setting falls through to the bundled binary', () => {
    const fs = fakeFs(['/ext/server/fitz', '/usr/bin/fitz']);
    for (const setting of [undefined, null, '', '   ']) {
      assert.deepEqual(resolveServerPath({ ...base, setting, isExecutable: fs.isExecutable }), {
        ok: true, path: '/ext/server/fitz', source: 'bundled',
      });
    }
  });
  it('then PATH, first directory first', () => {
    const fs = fakeFs(['/usr/local/bin/fitz', '/usr/bin/fitz']);
    assert.deepEqual(resolveServerPath({ ...base, isExecutable: fs.isExecutable }), {
      ok: true, path: '/usr/local/bin/fitz', source: 'path',
    });
    assert.deepEqual(fs.seen, ['/ext/server/fitz', '/usr/local/bin/fitz']);
  });
  it('reports everything it tried when nothing is found', () => {
    const fs = fakeFs([]);
    const r = resolveServerPath({ ...base, isExecutable: fs.isExecutable });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.source, 'none');
      assert.deepEqual(r.tried, ['/ext/server/fitz', '/usr/local/bin/fitz', '/usr/bin/fitz']);
      assert.match(r.reason, /fitz\.serverPath/);
    }
  });
  it('Windows: fitz.exe bundled, PATHEXT on PATH, backslash means relative', () => {
    const w = { ...base, platform: 'win32' as NodeJS.Platform, workspaceFolders: ['C:\\ws'], extensionPath: 'C:\\ext', envPath: 'C:\\bin;C:\\tools', pathExt: '.EXE;.CMD' };
    assert.deepEqual(resolveServerPath({ ...w, isExecutable: fakeFs(['C:\\ext\\server\\fitz.exe']).isExecutable }), {
      ok: true, path: 'C:\\ext\\server\\fitz.exe', source: 'bundled',
    });
    assert.deepEqual(resolveServerPath({ ...w, isExecutable: fakeFs(['C:\\tools\\fitz.exe']).isExecutable }), {
      ok: true, path: 'C:\\tools\\fitz.exe', source: 'path',
    });
    assert.deepEqual(resolveServerPath({ ...w, setting: 'build\\fitz.exe', isExecutable: fakeFs(['C:\\ws\\build\\fitz.exe']).isExecutable }), {
      ok: true, path: 'C:\\ws\\build\\fitz.exe', source: 'setting',
    });
    assert.deepEqual(executableNames('fitz', 'win32', '.EXE;.CMD'), ['fitz', 'fitz.exe', 'fitz.cmd']);
    assert.deepEqual(executableNames('fitz.exe', 'win32', '.EXE;.CMD'), ['fitz.exe']);
  });
  it('lookupOnPath skips empty PATH entries', () => {
    const r = lookupOnPath('fitz', ':/a::/b:', 'linux', (p) => p === '/b/fitz');
    assert.equal(r.found, '/b/fitz');
    assert.deepEqual(r.tried, ['/a/fitz', '/b/fitz']);
  });
  it('really checks the execute bit by default', () => {
    // node itself is executable; this test file is not.
    const r = resolveServerPath({ ...base, setting: process.execPath });
    assert.equal(r.ok, true);
    const notExec = resolveServerPath({ ...base, setting: __filename });
    assert.equal(notExec.ok, false);
  });
});

describe('CrashPolicy: exponential back-off, give up after quick crashes', () => {
  it('delays double from the initial delay up to the cap', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n)), [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    assert.equal(backoffDelay(0), 500);
  });
  it('restarts quick crashes with growing delays, then gives up', () => {
    const p = new CrashPolicy();
    let now = 0;
    const decisions = [];
    for (let i = 0; i < 6; i++) {
      p.started(now);
      now += 1000; // crashes after one second each time
      decisions.push(p.crashed(now));
    }
    assert.deepEqual(decisions.slice(0, 4).map((d) => (d.restart ? d.delayMs : -1)), [500, 1000, 2000, 4000]);
    assert.equal(decisions[4].restart, false);
    assert.equal(decisions[4].crashesInARow, DEFAULT_BACKOFF.maxRestarts + 1);
    assert.equal(decisions[5].restart, false);
  });
  it('a long healthy run forgets earlier crashes', () => {
    const p = new CrashPolicy();
    p.started(0);
    p.crashed(10);
    p.started(20);
    p.crashed(30);
    p.started(40);
    const d = p.crashed(40 + DEFAULT_BACKOFF.stableAfterMs);
    assert.deepEqual(d, { restart: true, delayMs: 500, crashesInARow: 1 });
  });
  it('reset (a restart by the user) forgets earlier crashes', () => {
    const p = new CrashPolicy();
    for (let i = 0; i < 10; i++) p.crashed(i);
    assert.equal(p.crashed(11).restart, false);
    p.reset();
    assert.deepEqual(p.crashed(12), { restart: true, delayMs: 500, crashesInARow: 1 });
  });
  it('options are honoured', () => {
    const p = new CrashPolicy({ initialDelayMs: 100, factor: 3, maxDelayMs: 1000, maxRestarts: 2, stableAfterMs: 5 });
    assert.deepEqual(p.crashed(0), { restart: true, delayMs: 100, crashesInARow: 1 });
    assert.deepEqual(p.crashed(1), { restart: true, delayMs: 300, crashesInARow: 2 });
    assert.deepEqual(p.crashed(2), { restart: false, crashesInARow: 3 });
  });
});

describe('cliInvocation: command -> fitz arguments', () => {
  const file = '/ws/app/src/main.fitz';
  const root = '/ws/app';
  it('project mode: cwd is the project root; check passes the root explicitly', () => {
    const expect: Record<string, string[]> = {
      check: ['check', root],
      build: ['build'],
      run: ['run'],
      test: ['test'],
      bench: ['bench'],
    };
    for (const [cmd, args] of Object.entries(expect)) {
      const r = cliInvocation(cmd as 'check', { file, projectRoot: root });
      assert.ok(r.ok);
      if (r.ok) {
        assert.deepEqual(r.invocation.args, args, cmd);
        assert.equal(r.invocation.cwd, root);
        assert.equal(r.invocation.mode, 'project');
      }
    }
  });
  it('single-file mode: the file, cwd its folder; test uses --file', () => {
    const loose = '/tmp/scratch/hello.fitz';
    const expect: Record<string, string[]> = {
      check: ['check', loose],
      build: ['build', loose],
      run: ['run', loose],
      test: ['test', '--file', loose],
      bench: ['bench', loose],
    };
    for (const [cmd, args] of Object.entries(expect)) {
      const r = cliInvocation(cmd as 'check', { file: loose });
      assert.ok(r.ok);
      if (r.ok) {
        assert.deepEqual(r.invocation.args, args, cmd);
        assert.equal(r.invocation.cwd, '/tmp/scratch');
        assert.equal(r.invocation.mode, 'file');
        assert.equal(r.invocation.label, `${cmd} hello.fitz`);
      }
    }
  });
  it('show generated C++ always works on the active file', () => {
    const r = cliInvocation('showGeneratedCpp', { file, projectRoot: root });
    assert.ok(r.ok);
    if (r.ok) {
      assert.deepEqual(r.invocation.args, ['build', '--emit=cpp', file, '-o', '-']);
      assert.equal(r.invocation.cwd, '/ws/app/src');
      assert.equal(r.invocation.label, 'build --emit=cpp src/main.fitz');
    }
    assert.equal(cliInvocation('showGeneratedCpp', { projectRoot: root }).ok, false);
  });
  it('check with only a workspace folder checks the folder; the rest need a file or project', () => {
    const r = cliInvocation('check', { workspaceFolder: '/ws/x' });
    assert.ok(r.ok);
    if (r.ok) assert.deepEqual(r.invocation.args, ['check', '/ws/x']);
    for (const cmd of ['build', 'run', 'test', 'bench'] as const) {
      const bad = cliInvocation(cmd, { workspaceFolder: '/ws/x' });
      assert.equal(bad.ok, false);
      if (!bad.ok) assert.match(bad.reason, /\.fitz file or a folder with a fitz\.toml/);
    }
  });
  it('runs in the workspace folder whenever fitz can still find its target (problem matcher paths)', () => {
    const cwdOf = (cmd: 'check' | 'build' | 'run' | 'test', ctx: Parameters<typeof cliInvocation>[1]) => {
      const r = cliInvocation(cmd, ctx);
      assert.ok(r.ok);
      return r.ok ? r.invocation.cwd : '';
    };
    // project root == workspace folder
    assert.equal(cwdOf('build', { file, projectRoot: root, workspaceFolder: root }), root);
    // workspace folder opened inside the project: fitz walks up from it to fitz.toml
    assert.equal(cwdOf('run', { file, projectRoot: root, workspaceFolder: '/ws/app/src' }), '/ws/app/src');
    // project in a subfolder of the workspace: build must run in the project root, check need not
    assert.equal(cwdOf('build', { file, projectRoot: root, workspaceFolder: '/ws' }), root);
    assert.equal(cwdOf('check', { file, projectRoot: root, workspaceFolder: '/ws' }), '/ws');
    // project outside the workspace folder
    assert.equal(cwdOf('check', { file, projectRoot: root, workspaceFolder: '/elsewhere' }), root);
    // single files: the workspace folder when the file is in it, else the file's folder
    assert.equal(cwdOf('run', { file: '/ws/scripts/a.fitz', workspaceFolder: '/ws' }), '/ws');
    assert.equal(cwdOf('test', { file: '/tmp/a.fitz', workspaceFolder: '/ws' }), '/tmp');
  });
  it('isWithin', () => {
    assert.ok(isWithin('/a/b', '/a'));
    assert.ok(isWithin('/a', '/a'));
    assert.ok(!isWithin('/ab', '/a'));
    assert.ok(!isWithin('/', '/a'));
  });
  it('every CLI command has a VS Code command id', () => {
    for (const c of CLI_COMMANDS) assert.match(COMMAND_IDS[c], /^fitz\.[a-zA-Z]+$/);
  });
  it('displayCommandLine quotes what a shell would split', () => {
    assert.equal(displayCommandLine('/usr/bin/fitz', ['check', '/a b/c.fitz', "it's"]), "/usr/bin/fitz check '/a b/c.fitz' 'it'\\''s'");
  });
});

describe('findProjectRoot', () => {
  const files = new Set(['/ws/app/fitz.toml', '/ws/fitz.toml']);
  const exists = (p: string) => files.has(p);
  it('walks up from a file to the nearest fitz.toml', () => {
    assert.equal(findProjectRoot('/ws/app/src/deep/main.fitz', exists), '/ws/app');
    assert.equal(findProjectRoot('/ws/other/x.fitz', exists), '/ws');
    assert.equal(findProjectRoot('/elsewhere/x.fitz', exists), undefined);
  });
  it('stops at stopAt', () => {
    assert.equal(findProjectRoot('/ws/other', exists, '/ws/other'), undefined);
    assert.equal(findProjectRoot('/ws/app', exists, '/ws/app'), '/ws/app');
  });
});

describe('status presentation', () => {
  it('one look per state; all but starting offer a restart on click', () => {
    const states = ['starting', 'ready', 'restarting', 'crashed', 'notFound', 'stopped'] as const;
    const texts = new Set(states.map((s) => statusPresentation(s).text + statusPresentation(s).tooltip));
    assert.equal(texts.size, states.length);
    assert.match(statusPresentation('ready').text, /Fitz/);
    assert.equal(statusPresentation('crashed').error, true);
    assert.equal(statusPresentation('notFound').warning, true);
    assert.match(statusPresentation('notFound', 'no fitz binary').tooltip, /no fitz binary/);
    for (const s of ['ready', 'crashed', 'notFound', 'stopped'] as const) assert.match(statusPresentation(s).tooltip, /Click to restart/);
  });
});

describe('resolveDebugConfiguration', () => {
  it('an empty configuration debugs the project, else the active file', () => {
    const r = resolveDebugConfiguration({}, { file: '/ws/app/src/main.fitz', projectRoot: '/ws/app' });
    assert.deepEqual(r, { ok: true, config: { type: 'fitz', request: 'launch', name: 'Debug app', program: '/ws/app', cwd: '/ws/app', args: [] } });
    const loose = resolveDebugConfiguration({}, { file: '/tmp/x/hello.fitz', workspaceFolder: '/tmp/x' });
    assert.ok(loose.ok);
    assert.equal(loose.config.program, '/tmp/x/hello.fitz');
    assert.equal(loose.config.cwd, '/tmp/x');
    assert.equal(loose.config.name, 'Debug hello.fitz');
  });
  it('keeps what the configuration says', () => {
    const given = { type: 'fitz', request: 'launch', name: 'api', program: '/srv/api.fitz', args: ['--v'], cwd: '/srv', env: { PORT: '9000' } };
    const r = resolveDebugConfiguration(given, { projectRoot: '/ws/app' });
    assert.deepEqual(r, { ok: true, config: given });
  });
  it('refuses attach and a configuration with nothing to debug', () => {
    const attach = resolveDebugConfiguration({ request: 'attach' }, { projectRoot: '/ws/app' });
    assert.ok(!attach.ok && /launch/.test(attach.reason));
    const none = resolveDebugConfiguration({}, {});
    assert.ok(!none.ok && /open a \.fitz file/.test(none.reason));
  });
  it('the adapter is `fitz debug --dap`', () => {
    assert.deepEqual(DEBUG_ADAPTER_ARGS, ['debug', '--dap']);
  });
});

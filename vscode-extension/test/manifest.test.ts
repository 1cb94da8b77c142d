// package.json contributions checked against the files and the compiled code they name.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import { EXTENSION_ROOT, loadGrammar, tokenize, tokenizeView } from './support/textmate';
import { parseSnippet } from './support/snippetParser';

/* eslint-disable @typescript-eslint/no-explicit-any */
const pkg = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const compiledSources = fs
  .readdirSync(path.join(EXTENSION_ROOT, 'out', 'src'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => fs.readFileSync(path.join(EXTENSION_ROOT, 'out', 'src', f), 'utf8'))
  .join('\n');

function semver(v: string): number[] {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(v);
  assert.ok(m, `not a version: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}
function cmp(a: number[], b: number[]): number {
  for (let k = 0; k < 3; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return 0;
}

describe('package.json', () => {
  it('identity and entry point', () => {
    assert.equal(pkg.name, 'fitz');
    assert.equal(pkg.publisher, 'fitz-lang');
    assert.equal(pkg.displayName, 'Fitz');
    assert.ok(fs.existsSync(path.join(EXTENSION_ROOT, pkg.main)), `${pkg.main} missing (compile first)`);
  });
  it('activates on the fitz language and on fitz.toml workspaces', () => {
    assert.ok(pkg.activationEvents.includes('onLanguage:fitz'));
    assert.ok(pkg.activationEvents.includes('onLanguage:fitzv'));
    assert.ok(pkg.activationEvents.includes('workspaceContains:**/fitz.toml'));
  });
  it('engines.vscode is at least the @types/vscode in use and what vscode-languageclient needs', () => {
    const engine = semver(pkg.engines.vscode);
    const types = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8'));
    assert.ok(cmp(engine, semver(types.version)) >= 0, `engines.vscode ${pkg.engines.vscode} < @types/vscode ${types.version}`);
    const lc = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'node_modules', 'vscode-languageclient', 'package.json'), 'utf8'));
    assert.ok(cmp(engine, semver(lc.engines.vscode)) >= 0, `engines.vscode ${pkg.engines.vscode} < languageclient's ${lc.engines.vscode}`);
  });
  it('every contributed file exists', () => {
    for (const l of contributes.languages) assert.ok(fs.existsSync(path.join(EXTENSION_ROOT, l.configuration)));
    for (const g of contributes.grammars) assert.ok(fs.existsSync(path.join(EXTENSION_ROOT, g.path)));
    for (const s of contributes.snippets) assert.ok(fs.existsSync(path.join(EXTENSION_ROOT, s.path)));
  });
  it('languages fitz (.fitz) and fitzv (.fitzv live views) with grammars source.fitz and source.fitzv', () => {
    assert.deepEqual(contributes.languages.map((l: any) => [l.id, l.extensions]), [['fitz', ['.fitz']], ['fitzv', ['.fitzv']]]);
    assert.deepEqual(contributes.grammars.map((g: any) => [g.language, g.scopeName]), [['fitz', 'source.fitz'], ['fitzv', 'source.fitzv']]);
    for (const g of contributes.grammars) {
      const grammar = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, g.path), 'utf8'));
      assert.equal(grammar.scopeName, g.scopeName);
    }
    assert.deepEqual(contributes.snippets.map((s: any) => s.language), ['fitz', 'fitzv']);
  });
  it('the embedded-language maps name scopes the grammars really produce', () => {
    for (const g of contributes.grammars) {
      const text = fs.readFileSync(path.join(EXTENSION_ROOT, g.path), 'utf8');
      for (const scope of Object.keys(g.embeddedLanguages)) assert.ok(text.includes(scope), `${g.language}: ${scope}`);
    }
  });
  it('the .fitzv language configuration comments with // and <!-- -->', () => {
    const conf = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, contributes.languages[1].configuration), 'utf8'));
    assert.equal(conf.comments.lineComment, '//');
    assert.deepEqual(conf.comments.blockComment, ['<!--', '-->']);
    for (const key of ['increaseIndentPattern', 'decreaseIndentPattern']) new RegExp(conf.indentationRules[key]);
  });
});

describe('commands', () => {
  const ids: string[] = contributes.commands.map((c: any) => c.command);
  it('the required commands are contributed', () => {
    for (const id of ['fitz.check', 'fitz.build', 'fitz.run', 'fitz.test', 'fitz.bench', 'fitz.showGeneratedCpp', 'fitz.restartServer']) {
      assert.ok(ids.includes(id), id);
    }
  });
  it('every command has a title and the Fitz category', () => {
    for (const c of contributes.commands) {
      assert.ok(c.title.length > 0);
      assert.equal(c.category, 'Fitz');
    }
  });
  it('every contributed command id appears in the compiled code (handlers are checked by activation.test)', () => {
    for (const id of ids) assert.ok(compiledSources.includes(`'${id}'`) || compiledSources.includes(`"${id}"`), `${id} not in out/src`);
  });
  it('menus only name contributed commands', () => {
    for (const entries of Object.values(contributes.menus) as any[][]) {
      for (const e of entries) assert.ok(ids.includes(e.command), e.command);
    }
  });
});

describe('debugger', () => {
  const debuggers = contributes.debuggers;
  it('contributes the fitz debugger type for .fitz files, with breakpoints in them', () => {
    assert.deepEqual(debuggers.map((d: any) => d.type), ['fitz']);
    assert.deepEqual(debuggers[0].languages, ['fitz']);
    assert.ok(contributes.breakpoints.some((b: any) => b.language === 'fitz'));
    assert.ok(pkg.activationEvents.includes('onDebugResolve:fitz'));
  });
  it('launch needs a program and documents every attribute', () => {
    const launch = debuggers[0].configurationAttributes.launch;
    assert.deepEqual(launch.required, ['program']);
    for (const key of ['program', 'args', 'cwd', 'env', 'stopOnEntry']) {
      assert.ok(launch.properties[key], `launch.${key}`);
      assert.ok(launch.properties[key].description.length > 10, `launch.${key} description`);
    }
  });
  it('initial configurations and snippets are fitz launches with a program', () => {
    for (const c of [...debuggers[0].initialConfigurations, ...debuggers[0].configurationSnippets.map((s: any) => s.body)]) {
      assert.equal(c.type, 'fitz');
      assert.equal(c.request, 'launch');
      assert.ok(typeof c.program === 'string' && c.program.length > 0);
    }
  });
});

describe('settings', () => {
  const props = contributes.configuration.properties;
  it('fitz.serverPath and fitz.trace.server exist with the documented shapes', () => {
    assert.equal(props['fitz.serverPath'].type, 'string');
    assert.deepEqual(props['fitz.trace.server'].enum, ['off', 'messages', 'verbose']);
  });
  it('every setting is read somewhere in the compiled code', () => {
    for (const key of Object.keys(props)) {
      assert.ok(key.startsWith('fitz.'), key);
      const sub = key.slice('fitz.'.length);
      const read = new RegExp(`\\.get\\(\\s*['"]${sub.replace(/\./g, '\\.')}['"]`).test(compiledSources);
      assert.ok(read, `setting ${key} is never read (no .get('${sub}') in out/src)`);
    }
  });
  it('the server path setting is restricted in untrusted workspaces', () => {
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('fitz.serverPath'));
  });
});

describe('fitzv snippets', () => {
  const snippets = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'snippets', 'fitzv.json'), 'utf8'));
  const entries = Object.entries(snippets) as Array<[string, any]>;
  it('the required prefixes exist, each once', () => {
    const prefixes = entries.map(([, s]) => s.prefix);
    for (const p of ['component', 'event', 'on', 'if', 'for']) assert.equal(prefixes.filter((x) => x === p).length, 1, p);
  });
  for (const [name, s] of entries) {
    it(`${name} parses`, () => {
      assert.ok(typeof s.description === 'string' && s.description.length > 0, 'description');
      const parsed = parseSnippet(Array.isArray(s.body) ? s.body.join('\n') : s.body);
      const numbered = [...parsed.tabstops.keys()].filter((n) => n > 0).sort((a, b) => a - b);
      assert.ok(numbered.length > 0, 'no tabstops');
      assert.deepEqual(numbered, numbered.map((_, k) => k + 1), `tabstops not 1..n: ${numbered}`);
    });
  }
  it('the component snippet, defaults filled in, tokenizes as a view with no invalid tokens', async () => {
    const body = snippets['Component'].body.join('\n');
    const tokens = await tokenizeView(parseSnippet(body).text);
    assert.ok(tokens.some((t) => t.scopes.includes('entity.name.type.component.fitzv')));
    assert.deepEqual(tokens.filter((t) => t.scopes.some((x) => x.startsWith('invalid.'))).map((t) => t.text), []);
  });
});

describe('snippets', () => {
  const snippets = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'snippets', 'fitz.json'), 'utf8'));
  const entries = Object.entries(snippets) as Array<[string, any]>;
  it('the required prefixes exist, each once', () => {
    const prefixes = entries.map(([, s]) => s.prefix);
    for (const p of ['fn', 'afn', 'type', 'test', 'get', 'post', 'put', 'patch', 'delete', 'table', 'ws', 'cron', 'match', 'for', 'if', 'main', 'live']) {
      assert.equal(prefixes.filter((x) => x === p).length, 1, p);
    }
  });
  for (const [name, s] of entries) {
    it(`${name} parses`, () => {
      assert.equal(typeof s.prefix, 'string');
      assert.ok(typeof s.description === 'string' && s.description.length > 0, 'description');
      const body = Array.isArray(s.body) ? s.body.join('\n') : s.body;
      const parsed = parseSnippet(body);
      assert.ok(parsed.tabstops.size > 0, 'no tabstops');
      const numbered = [...parsed.tabstops.keys()].filter((n) => n > 0).sort((a, b) => a - b);
      assert.deepEqual(numbered, numbered.map((_, k) => k + 1), `tabstops not 1..n: ${numbered}`);
      assert.ok((parsed.tabstops.get(0)?.length ?? 0) <= 1, '$0 twice');
    });
  }
  it('snippet bodies with defaults filled in are valid Fitz for the grammar (no invalid tokens)', async () => {
    for (const [name, s] of entries) {
      const body = Array.isArray(s.body) ? s.body.join('\n') : s.body;
      const tokens = await tokenize(parseSnippet(body).text);
      const bad = tokens.filter((t) => t.scopes.some((x) => x.startsWith('invalid.')));
      assert.deepEqual(bad.map((t) => t.text), [], `${name}: invalid tokens`);
    }
  });
  it('the strict reader rejects malformed snippets', () => {
    assert.throws(() => parseSnippet('SELECT $ FROM t'));
    assert.throws(() => parseSnippet('${1:open'));
    assert.throws(() => parseSnippet('$NOT_A_VARIABLE'));
    assert.doesNotThrow(() => parseSnippet('\\$1 ${1|a,b|} $TM_FILENAME ${2:x${3:y}}'));
  });
});

describe('language configuration', () => {
  const conf = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'language-configuration.json'), 'utf8'));
  const re = (v: string | { pattern: string; flags?: string }) => (typeof v === 'string' ? new RegExp(v) : new RegExp(v.pattern, v.flags));
  it('comments', () => {
    assert.equal(conf.comments.lineComment, '//');
    assert.deepEqual(conf.comments.blockComment, ['/*', '*/']);
  });
  it('every regex compiles', () => {
    re(conf.wordPattern);
    re(conf.indentationRules.increaseIndentPattern);
    re(conf.indentationRules.decreaseIndentPattern);
    re(conf.folding.markers.start);
    re(conf.folding.markers.end);
    for (const r of conf.onEnterRules) {
      re(r.beforeText);
      if (r.afterText !== undefined) re(r.afterText);
      if (r.previousLineText !== undefined) re(r.previousLineText);
    }
  });
  it('quotes auto-close outside strings and comments; labels do not auto-close', () => {
    const quote = conf.autoClosingPairs.find((p: any) => p.open === '"');
    assert.deepEqual(quote.notIn, ['string', 'comment']);
    assert.ok(!conf.autoClosingPairs.some((p: any) => p.open === "'"), "' starts a label and must not auto-close");
    for (const b of ['{', '[', '(']) assert.ok(conf.autoClosingPairs.some((p: any) => p.open === b));
    for (const b of ['{', '[', '(', '"']) assert.ok(conf.surroundingPairs.some((p: string[]) => p[0] === b));
  });
  it('indentation rules', () => {
    const inc = re(conf.indentationRules.increaseIndentPattern);
    const dec = re(conf.indentationRules.decreaseIndentPattern);
    for (const line of ['fn f() {', '    if x > 1 {', 'let xs = [', 'print(', 'match v {']) assert.ok(inc.test(line), line);
    for (const line of ['let x = {}', '// a {', 'print("{x}")', 'let s = "{"']) assert.ok(!inc.test(line), line);
    for (const line of ['}', '    } else {', ']', ')']) assert.ok(dec.test(line), line);
    assert.ok(!dec.test('let x = 1'));
  });
  function onEnter(before: string, after: string): any {
    return conf.onEnterRules.find((r: any) => re(r.beforeText).test(before) && (r.afterText === undefined || re(r.afterText).test(after)))?.action;
  }
  it('onEnter: indent after an opener, indent-outdent between a pair', () => {
    for (const opener of ['{', '[', '(']) {
      assert.equal(onEnter(`fn f() ${opener}`, '')?.indent, 'indent', opener);
    }
    assert.equal(onEnter('fn f() {', '}')?.indent, 'indentOutdent');
    assert.equal(onEnter('call(', ')')?.indent, 'indentOutdent');
    assert.equal(onEnter('let x = 1', ''), undefined);
  });
  it('onEnter: // comments continue', () => {
    assert.equal(onEnter('    // explains the loop', '')?.appendText, '// ');
    assert.equal(onEnter('let x = 1 // split this', ' comment')?.appendText, '// ');
    assert.equal(onEnter('let x = 1 // trailing', ''), undefined);
    assert.equal(onEnter('    //', ''), undefined);
    assert.equal(onEnter('let u = "http://x"', ' + y'), undefined);
  });
  it('folding markers', () => {
    assert.ok(re(conf.folding.markers.start).test('// region setup'));
    assert.ok(re(conf.folding.markers.end).test('  // endregion'));
  });
});

describe('grammar file', () => {
  it('every regex compiles with oniguruma', async () => {
    await loadGrammar(); // makes sure the onig wasm is loaded
    const grammar = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'syntaxes', 'fitz.tmLanguage.json'), 'utf8'));
    const patterns: string[] = [];
    const walk = (node: any) => {
      if (node === null || typeof node !== 'object') return;
      for (const key of ['match', 'begin', 'end', 'while']) if (typeof node[key] === 'string') patterns.push(node[key]);
      for (const v of Object.values(node)) walk(v);
    };
    walk(grammar);
    assert.ok(patterns.length > 50);
    for (const p of patterns) {
      assert.doesNotThrow(() => new oniguruma.OnigScanner([p]).dispose(), `bad regex ${p}`);
    }
  });
  it('every #include names a repository rule', () => {
    const grammar = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'syntaxes', 'fitz.tmLanguage.json'), 'utf8'));
    const includes: string[] = [];
    const walk = (node: any) => {
      if (node === null || typeof node !== 'object') return;
      if (typeof node.include === 'string') includes.push(node.include);
      for (const v of Object.values(node)) walk(v);
    };
    walk(grammar);
    for (const inc of includes) {
      if (inc.startsWith('#')) assert.ok(grammar.repository[inc.slice(1)], inc);
      else assert.ok(inc === '$self' || inc === 'source.sql', inc);
    }
  });
});

describe('problem matcher $fitz', () => {
  const pm = contributes.problemMatchers.find((m: any) => m.name === 'fitz');
  const rx = new RegExp(pm.pattern.regexp);
  it('matches error and warning lines with their code', () => {
    const m = rx.exec('src/main.fitz:3:14: error[E0301]: operator `+` does not accept `Str` and `Int`');
    assert.ok(m);
    assert.equal(m[pm.pattern.file], 'src/main.fitz');
    assert.equal(m[pm.pattern.line], '3');
    assert.equal(m[pm.pattern.column], '14');
    assert.equal(m[pm.pattern.severity], 'error');
    assert.equal(m[pm.pattern.code], 'E0301');
    assert.equal(m[pm.pattern.message], 'operator `+` does not accept `Str` and `Int`');
    const w = rx.exec('/abs/dir with space/x.fitz:10:1: warning[W0102]: unused variable `y`');
    assert.ok(w);
    assert.equal(w[pm.pattern.file], '/abs/dir with space/x.fitz');
    assert.equal(w[pm.pattern.severity], 'warning');
    const win = rx.exec('C:\\proj\\src\\main.fitz:2:5: error[E0001]: unexpected character `;`');
    assert.ok(win);
    assert.equal(win[pm.pattern.file], 'C:\\proj\\src\\main.fitz');
  });
  it('ignores snippets, help lines, notes and the summary', () => {
    for (const line of [' 3 |     print(add(1, 2', '   |                   ^', 'help: add `)` here', 'error: 3 errors, 1 warning emitted', 'src/a.fitz:1:2: note: declared here', 'error[E0400]: no location']) {
      assert.equal(rx.exec(line), null, line);
    }
  });
  it('owner and file locations', () => {
    assert.equal(pm.owner, 'fitz');
    assert.equal(pm.fileLocation[0], 'autoDetect');
  });
});

describe('semantic token scopes', () => {
  it('cover the standard token types the server announces', () => {
    const scopes = contributes.semanticTokenScopes.find((s: any) => s.language === 'fitz').scopes;
    const types = new Set(Object.keys(scopes).map((k) => k.split('.')[0]));
    for (const t of ['namespace', 'type', 'struct', 'parameter', 'variable', 'property', 'function', 'method', 'decorator', 'keyword', 'string', 'number', 'operator', 'comment']) {
      assert.ok(types.has(t), t);
    }
    const modifiers = new Set(Object.keys(scopes).flatMap((k) => k.split('.').slice(1)));
    for (const m of ['declaration', 'readonly', 'async', 'defaultLibrary']) assert.ok(modifiers.has(m), m);
    for (const v of Object.values(scopes) as string[][]) for (const s of v) assert.match(s, /\.fitz$/);
  });
});

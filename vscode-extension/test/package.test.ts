// `vsce package` produces a .vsix holding the manifest, grammar, snippets, language
// configuration, compiled extension and the language client, and nothing from the tests.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { EXTENSION_ROOT } from './support/textmate';

/** Lists the entries of a zip file from its central directory. */
export function zipEntries(file: string): string[] {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, 'not a zip file (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let off = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let k = 0; k < count; k++) {
    assert.equal(buf.readUInt32LE(off), 0x02014b50, 'bad central directory entry');
    const nameLen = buf.readUInt16LE(off + 28);
    const extraLen = buf.readUInt16LE(off + 30);
    const commentLen = buf.readUInt16LE(off + 32);
    names.push(buf.toString('utf8', off + 46, off + 46 + nameLen));
    off += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

describe('vsce package', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fitz-vsix-'));
  after(() => fs.rmSync(out, { recursive: true, force: true }));
  const pkg = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8'));
  const vsix = path.join(out, `${pkg.name}-${pkg.version}.vsix`);

  it('npm run package -- --out DIR writes the .vsix', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', 'package', '--', '--out', vsix], { cwd: EXTENSION_ROOT, encoding: 'utf8', stdio: 'pipe', timeout: 180_000 });
    assert.equal(r.status, 0, `vsce package failed:\n${r.stdout}\n${r.stderr}`);
    assert.ok(fs.existsSync(vsix), `${vsix} missing`);
    const size = fs.statSync(vsix).size;
    assert.ok(size > 10_000 && size < 5_000_000, `unexpected size ${size}`);
    console.log(`vsix ${path.basename(vsix)}: ${(size / 1024).toFixed(0)} KiB`);
  });

  it('holds the grammar, snippets, language configuration, compiled extension, debugger and client', () => {
    const entries = zipEntries(vsix);
    for (const needed of [
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/syntaxes/fitz.tmLanguage.json',
      'extension/snippets/fitz.json',
      'extension/language-configuration.json',
      'extension/syntaxes/fitzv.tmLanguage.json',
      'extension/snippets/fitzv.json',
      'extension/language-configuration-fitzv.json',
      'extension/out/src/extension.js',
      'extension/out/src/server.js',
      'extension/out/src/serverPath.js',
      'extension/out/src/debug.js',
      'extension/out/src/debugConfig.js',
      'extension/node_modules/vscode-languageclient/package.json',
      'extension/node_modules/vscode-languageclient/lib/node/main.js',
    ]) {
      assert.ok(entries.includes(needed), `${needed} not in the vsix`);
    }
    assert.ok(entries.some((e) => e.toLowerCase() === 'extension/readme.md'), 'README missing');
  });

  it('leaves out tests, sources, maps and dev dependencies', () => {
    const entries = zipEntries(vsix);
    const bad = entries.filter((e) =>
      /^extension\/(test|src|out\/test)\//.test(e) ||
      e.endsWith('.map') ||
      e.endsWith('.ts') ||
      /^extension\/node_modules\/(typescript|@vscode\/vsce|vscode-textmate|vscode-oniguruma|@types)\//.test(e),
    );
    assert.deepEqual(bad, []);
  });
});

// The documents point at what exists: every relative link of README.md and docs/ reaches a file
// (and its heading, when the link names one), and every document the code's comments name is there,
// with the section they quote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function files(dir: string, ext: RegExp): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(rel, ext);
    return ext.test(e.name) ? [rel] : [];
  });
}

const docs = ['README.md', ...files('docs', /\.md$/)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const headingsOf = (file: string) =>
  fs
    .readFileSync(path.join(root, file), 'utf8')
    .replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, ''));

test('every relative link in README.md and docs/ reaches a file, and its heading when it names one', () => {
  const broken: string[] = [];
  for (const file of docs) {
    const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1]!;
      if (/^[a-z]+:/i.test(href)) continue;
      const [target, anchor] = href.split('#') as [string, string | undefined];
      const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), target));
      if (!fs.existsSync(path.join(root, resolved))) {
        broken.push(`${file}: ${href} (no ${resolved})`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !headingsOf(resolved).some((h) => slug(h) === anchor)) broken.push(`${file}: ${href} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('every document the code names exists, with the section it quotes', () => {
  const missing: string[] = [];
  for (const file of [...files('src', /\.(ts|mjs)$/), ...files('test', /\.(ts|mjs)$/), ...files('bench', /\.(ts|mjs)$/), ...files('scripts', /\.mjs$/), ...files('examples', /\.mjs$/)]) {
    if (file === path.join('test', 'docs-links.test.ts')) continue;
    // Comment markers between the words do not count: a quote may wrap onto the next comment line.
    const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/\n\s*(\/\/|\*)\s*/g, ' ');
    for (const m of text.matchAll(/\bdocs\/([\w/.-]+\.md)(?:,?\s*"([^"]+)")?/g)) {
      const doc = `docs/${m[1]}`;
      if (!fs.existsSync(path.join(root, doc))) missing.push(`${file}: ${doc}`);
      else if (m[2] && !headingsOf(doc).some((h) => h.toLowerCase() === m[2]!.toLowerCase())) missing.push(`${file}: ${doc} has no section "${m[2]}"`);
    }
  }
  assert.deepEqual(missing, []);
});

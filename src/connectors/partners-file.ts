// The operator's partners file, DATA_DIR/partners.json (format in docs/guide/connectors.md): candidates that are
// not (or not only) listings, and optionally the ideal-partner traits. A missing file is normal; a
// malformed one is reported (status invalid, with the reason) and skipped, never a crash.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fieldProblems } from '../platform/errors.ts';
import type { Trait } from './traits.ts';

export const PARTNERS_FILE = 'partners.json';
const MAX_FILE_BYTES = 1024 * 1024;

const traitSchema = z.object({
  trait: z.string().trim().min(1).max(40),
  weight: z.number().int().min(1).max(20),
  keywords: z.array(z.string().trim().min(1).max(60)).min(1).max(30),
});

const partnerSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, dot, dash or underscore, at most 64'),
  name: z.string().trim().min(1).max(120),
  kind: z.string().trim().min(1).max(40).optional(),
  role: z.string().max(200).optional(),
  engage: z.string().max(300).optional(),
  about: z.string().max(2000).optional(),
  tags: z.array(z.string().max(60)).max(20).optional(),
  listing_id: z.string().min(1).max(64).optional(),
  live_score: z.number().min(0).max(10).optional(),
});

const fileSchema = z
  .object({
    traits: z.array(traitSchema).min(1).max(20).optional(),
    partners: z.array(partnerSchema).max(1000).default([]),
  })
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    f.partners.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['partners', i, 'id'], message: `duplicate id ${JSON.stringify(p.id)}` });
      seen.add(p.id);
    });
  });

export type FilePartner = z.output<typeof partnerSchema>;

export interface PartnersFile {
  file: string;
  status: 'missing' | 'ok' | 'invalid';
  partners: FilePartner[];
  /** The operator's traits, when the file gives them. */
  traits?: Trait[];
  /** Why the file was skipped (status invalid). */
  error?: string;
}

const invalid = (error: string): PartnersFile => ({ file: PARTNERS_FILE, status: 'invalid', partners: [], error });

export async function loadPartnersFile(dataDir: string): Promise<PartnersFile> {
  const where = path.join(dataDir, PARTNERS_FILE);
  let text: string;
  try {
    const stat = await fs.stat(where);
    if (!stat.isFile()) return invalid(`${PARTNERS_FILE} is not a file`);
    if (stat.size > MAX_FILE_BYTES) return invalid(`${PARTNERS_FILE} is larger than ${MAX_FILE_BYTES} bytes`);
    text = await fs.readFile(where, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file: PARTNERS_FILE, status: 'missing', partners: [] };
    return invalid(`${PARTNERS_FILE} cannot be read (${code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return invalid(`${PARTNERS_FILE} is not JSON: ${(err as Error).message}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return invalid(`${PARTNERS_FILE}: ${fieldProblems(parsed.error).slice(0, 5).map((p) => `${p.field}: ${p.message}`).join('; ')}`);
  }
  return { file: PARTNERS_FILE, status: 'ok', partners: parsed.data.partners, ...(parsed.data.traits ? { traits: parsed.data.traits } : {}) };
}

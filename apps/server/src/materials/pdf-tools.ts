import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MATERIAL_IMAGE_WIDTH_PX } from '@sea/contract/materials';
import { MATERIAL_ERRORS } from './material-errors.ts';

/** The Debian programs materials need: poppler-utils' (PDFs) and LibreOffice's (office files). */
export type PdfTools = { pdfinfo: string; pdftoppm: string; pdftotext: string; soffice: string | null };

/** The longest LibreOffice may take to convert one file. */
export const OFFICE_TIMEOUT_MS = 120_000;
/** The longest one poppler call may take (a page range, or the whole text). */
const POPPLER_TIMEOUT_MS = 60_000;

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** poppler-utils and LibreOffice as found on PATH: null without poppler; `soffice` null without LibreOffice. */
export function findPdfTools(): PdfTools | null {
  const [pdfinfo, pdftoppm, pdftotext] = ['pdfinfo', 'pdftoppm', 'pdftotext'].map(onPath);
  if (!pdfinfo || !pdftoppm || !pdftotext) return null;
  return { pdfinfo, pdftoppm, pdftotext, soffice: onPath('soffice') ?? onPath('libreoffice') };
}

type Run = { timeoutMs?: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv };

/** Runs a program to its end and answers its stdout; rejects with its exit and stderr otherwise. */
export function runTool(file: string, args: readonly string[], run: Run = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        timeout: run.timeoutMs ?? POPPLER_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        signal: run.signal,
        env: run.env ?? process.env,
      },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stderr: String(stderr) }));
        else resolve(String(stdout));
      },
    );
  });
}

/** A PDF's page count, once it is known to be readable and not encrypted; throws the material errors. */
export async function pdfPages(tools: PdfTools, pdf: string, signal?: AbortSignal): Promise<number> {
  let info: string;
  try {
    info = await runTool(tools.pdfinfo, [pdf], { signal, timeoutMs: 20_000 });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (/password/i.test((error as { stderr?: string }).stderr ?? '')) throw MATERIAL_ERRORS.encrypted();
    throw MATERIAL_ERRORS.broken();
  }
  if (/^Encrypted:\s+yes/m.test(info)) throw MATERIAL_ERRORS.encrypted();
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
  if (!Number.isInteger(pages)) throw MATERIAL_ERRORS.broken();
  if (pages === 0) throw MATERIAL_ERRORS.noPages();
  return pages;
}

/**
 * Renders pages `first` to `last` into PNGs in `dir`, the long side {@link MATERIAL_IMAGE_WIDTH_PX} pixels;
 * answers each page's file by number.
 */
export async function renderPages(
  tools: PdfTools,
  pdf: string,
  range: { first: number; last: number; dir: string },
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const prefix = path.join(range.dir, `r${range.first}`);
  const size = String(MATERIAL_IMAGE_WIDTH_PX);
  const args = ['-png', '-scale-to', size, '-f', String(range.first), '-l', String(range.last), pdf, prefix];
  await runTool(tools.pdftoppm, args, { signal });
  const files = new Map<number, string>();
  for (const name of await readdir(range.dir)) {
    const match = new RegExp(`^r${range.first}-0*(\\d+)\\.png$`).exec(name);
    if (match) files.set(Number(match[1]), path.join(range.dir, name));
  }
  return files;
}

/** The text of every page, in order (pdftotext separates pages with a form feed). */
export async function pageTexts(tools: PdfTools, pdf: string, signal?: AbortSignal): Promise<string[]> {
  const text = await runTool(tools.pdftotext, ['-enc', 'UTF-8', pdf, '-'], { signal });
  return text.split('\f');
}

/** A page's title: its first line with text, spaces collapsed, at most 100 characters; null for none. */
export function pageTitle(text: string | undefined): string | null {
  const line = (text ?? '')
    .split('\n')
    .map((each) => each.replace(/\s+/g, ' ').trim())
    .find((each) => each !== '');
  return line === undefined ? null : [...line].slice(0, 100).join('');
}

/**
 * Converts an office file to `<its name>.pdf` in `outDir` with LibreOffice headless, with a profile of its own
 * in `profileDir` (two conversions at once would otherwise fight over the user's) and a time limit. Throws the
 * material error of a failed conversion.
 */
export async function officeToPdf(
  soffice: string,
  input: string,
  dirs: { outDir: string; profileDir: string },
  signal?: AbortSignal,
): Promise<string> {
  const profile = `-env:UserInstallation=${pathToFileURL(dirs.profileDir).href}`;
  const args = ['--headless', '--norestore', '--nolockcheck', profile, '--convert-to', 'pdf'];
  try {
    await runTool(soffice, [...args, '--outdir', dirs.outDir, input], {
      signal,
      timeoutMs: OFFICE_TIMEOUT_MS,
      env: { ...process.env, HOME: dirs.profileDir },
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw MATERIAL_ERRORS.conversionFailed();
  }
  const pdf = path.join(dirs.outDir, `${path.parse(input).name}.pdf`);
  if (!fs.existsSync(pdf)) throw MATERIAL_ERRORS.conversionFailed();
  return pdf;
}

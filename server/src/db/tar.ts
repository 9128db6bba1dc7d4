// The embedded database template's archive format: plain ustar, directories and regular files only,
// which is what PGlite's `loadDataDir` reads (the tests load it in memory) and what a first start
// unpacks onto disk (pglite-template.ts).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

const BLOCK = 512;

/** Packs the files and directories under `root` (names relative to it). */
export function packDirectory(root: string, skip: (name: string) => boolean = () => false): Buffer {
  const parts: Buffer[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      const name = relative(root, path).split(sep).join("/");
      if (skip(name)) continue;
      if (entry.isDirectory()) {
        parts.push(header(name, 0, "5", statSync(path).mtimeMs));
        walk(path);
      } else if (entry.isFile()) {
        const data = readFileSync(path);
        parts.push(header(name, data.length, "0", statSync(path).mtimeMs), data, Buffer.alloc(padding(data.length)));
      } else throw new Error(`tar: ${name} is neither a file nor a directory`);
    }
  };
  walk(root);
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/** Extracts an archive made by `packDirectory` (or PGlite's `dumpDataDir`) under `target`. */
export function unpackArchive(archive: Buffer, target: string): void {
  mkdirSync(target, { recursive: true });
  // Each directory is made once: a first start unpacks 700 files, and a mkdir per file was 700 syscalls.
  const made = new Set<string>([target]);
  const makeDirectory = (path: string) => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true });
    made.add(path);
  };
  const text = (from: number, length: number) => {
    const field = archive.subarray(from, from + length);
    const end = field.indexOf(0);
    return field.subarray(0, end === -1 ? length : end).toString("utf8");
  };
  for (let at = 0; at + BLOCK <= archive.length; ) {
    if (archive[at] === 0) break; // the empty blocks that end the archive
    const prefix = text(at + 345, 155);
    const name = `${prefix}${prefix ? "/" : ""}${text(at, 100)}`.replace(/^\/+/, "");
    const size = Number.parseInt(text(at + 124, 12).trim() || "0", 8);
    const kind = text(at + 156, 1) || "0";
    const path = join(target, name);
    if (name.split("/").includes("..")) throw new Error(`tar: unsafe path ${name}`);
    const body = at + BLOCK;
    if (kind === "5") makeDirectory(path);
    else if (kind === "0") {
      makeDirectory(dirname(path));
      writeFileSync(path, archive.subarray(body, body + size));
    } else throw new Error(`tar: unexpected entry type ${kind} for ${name}`);
    at = body + size + padding(size);
  }
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

function header(name: string, size: number, kind: "0" | "5", mtimeMs: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  // Names longer than the 100-byte field are split at a slash into the 155-byte prefix.
  let [prefix, base] = ["", name];
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf("/", 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`tar: name too long: ${name}`);
    [prefix, base] = [name.slice(0, cut), name.slice(cut + 1)];
  }
  const put = (from: number, length: number, value: string) => block.write(value, from, length, "utf8");
  const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, "0")}\0`;
  put(0, 100, base);
  put(100, 8, octal(kind === "5" ? 0o755 : 0o644, 8));
  put(108, 8, octal(0, 8));
  put(116, 8, octal(0, 8));
  put(124, 12, octal(size, 12));
  put(136, 12, octal(Math.floor(mtimeMs / 1000), 12));
  put(148, 8, "        ");
  put(156, 1, kind);
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  put(345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

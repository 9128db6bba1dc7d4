// The README is a map into docs/, and the docs link to each other: every relative link (and image) in
// README.md and docs/**/*.md must lead to a file of the repository, and a link's #anchor to a heading there,
// so that moving or renaming a page cannot leave a link leading nowhere.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code, where a `[x](y)` is a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/``[^`]*``|`[^`\n]*`/g, "");
}

/** GitHub's anchors for a page's headings (lower case, punctuation dropped, spaces as hyphens, repeats numbered). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .replace(/[`*_]/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Each relative link of one markdown file that leads to no file, or to no heading of its file. */
export function brokenLinks(file: string, text: string, read = (path: string) => readFileSync(path, "utf8")): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:, …: not a file of the repository
    const [path, anchor] = target!.split("#", 2) as [string, string | undefined];
    const destination = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(destination)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor && destination.endsWith(".md") && !anchors(read(destination)).has(anchor.toLowerCase())) {
      broken.push(`${target}: no heading with that anchor`);
    }
  }
  return broken;
}

describe("links in the README and docs/", () => {
  const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

  it("each relative link leads to an existing file, and each #anchor to a heading of it", () => {
    const broken = files.flatMap((file) =>
      brokenLinks(file, readFileSync(file, "utf8")).map((problem) => `${relative(root, file)}: ${problem}`),
    );
    expect(broken).toEqual([]);
  });

  it("the README links every page of docs/", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const linked = new Set([...prose(readme).matchAll(/\]\((docs\/[^)#\s]+\.md)/g)].map((match) => match[1]));
    const pages = files.filter((file) => file.startsWith(join(root, "docs"))).map((file) => relative(root, file));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it("finds a link to a missing file or heading, and ignores code and outside addresses", () => {
    const readme = join(root, "README.md");
    const text = [
      "[ok](docs/architecture.md#layers) [gone](docs/nowhere.md) [bad anchor](docs/architecture.md#no-such-heading)",
      "![still](docs/stills/cinematic-standard.jpg) [site](https://example.com/x.md) `[code](docs/nowhere.md)`",
      "```\n[fenced](docs/nowhere.md)\n```",
    ].join("\n");
    expect(brokenLinks(readme, text)).toEqual([
      "docs/nowhere.md: no such file",
      "docs/architecture.md#no-such-heading: no heading with that anchor",
    ]);
  });
});

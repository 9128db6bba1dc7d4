// Reads the import graph of the server, the REST adapter and the schema with the TypeScript parser,
// so that the layer test can name each cycle and each import that points up the layers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` (or only type specifiers): erased at run time, so it cannot close a loading cycle. */
  typeOnly: boolean;
}

/** The workspace packages these sources import by name, each at its entry file. */
const PACKAGE_ENTRIES: Record<string, string> = {
  "@adgen/schema": "schema/src/index.ts",
  "@adgen/schema/jitless": "schema/src/jitless.ts",
  "@adgen/rest-adapter": "rest-adapter/src/index.ts",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolveImport(root: string, fromFile: string, specifier: string): string | null {
  if (specifier in PACKAGE_ENTRIES) return PACKAGE_ENTRIES[specifier] as string;
  if (specifier.startsWith("@adgen/server/")) return `server/src/${specifier.slice("@adgen/server/".length)}`;
  if (!specifier.startsWith(".")) return null;
  const target = resolve(dirname(join(root, fromFile)), specifier).replace(/\.js$/, ".ts");
  for (const candidate of [target, `${target}.ts`, join(target, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return relative(root, candidate);
    } catch {}
  }
  return null;
}

function isTypeOnlyImport(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const to = resolveImport(root, file, specifier);
    if (to) edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, isTypeOnlyImport(node));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) add(argument.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Every import between the sources under `dirs` (paths relative to `root`, the repository). */
export function importGraph(root: string, dirs: string[]): { files: string[]; edges: ImportEdge[] } {
  const files = dirs.flatMap((dir) => sourceFiles(join(root, dir)).map((file) => relative(root, file))).sort();
  return { files, edges: files.flatMap((file) => importsOf(root, file)) };
}

/** Tarjan's strongly connected components with more than one member: each is an import cycle. */
export function cycles(nodes: string[], edges: Array<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>(nodes.map((node) => [node, []]));
  for (const { from, to } of edges) if (from !== to) next.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return found;
}

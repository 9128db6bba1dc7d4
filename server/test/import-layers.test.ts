// Between module folders, too, nothing imports itself round a loop: `modules/billing` may use
// `modules/credits`, but then nothing in credits may use billing, whichever files do it. File-level cycles
// and the layers (schema ← db/config ← domain ← operations ← transports ← main) are checked by
// dependency-cruiser in `pnpm lint` (.dependency-cruiser.cjs, proved in import-rules.test.ts); it has
// no rule for loops between folders, which this reads from the sources' imports (the TypeScript parser).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycles, type ImportEdge, importGraph } from "./support/import-graph.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The folder a file belongs to: a domain module (`modules/<area>`), a top-level folder, or a package. */
function unitOf(file: string): string {
  const module = /^server\/src\/modules\/[^/]+/.exec(file);
  if (module) return module[0];
  const folder = /^server\/src\/[^/]+\//.exec(file);
  if (folder) return folder[0].slice(0, -1);
  if (file.startsWith("server/src/")) return file;
  return file.split("/src/")[0] as string;
}

const graph = importGraph(root, ["server/src", "rest-adapter/src", "schema/src"]);
/** Cycles are about loading order, so only imports that exist at run time close one. */
const runtime: ImportEdge[] = graph.edges.filter((edge) => !edge.typeOnly);

describe("import cycles between module folders", () => {
  it("has none", () => {
    expect(graph.files.length).toBeGreaterThan(300);
    const units = [...new Set(graph.files.map(unitOf))];
    const unitEdges = runtime.map(({ from, to }) => ({ from: unitOf(from), to: unitOf(to) }));
    const found = cycles(units, unitEdges).map((cycle) => {
      const witnesses = runtime
        .filter(({ from, to }) => unitOf(from) !== unitOf(to) && cycle.includes(unitOf(from)) && cycle.includes(unitOf(to)))
        .map(({ from, to }) => `${from} → ${to}`);
      return `${cycle.join(" ⇄ ")}: ${witnesses.join(", ")}`;
    });
    expect(found).toEqual([]);
  });

  it("finds the cycles it looks for", () => {
    expect(
      cycles(
        ["a", "b", "c"],
        [
          { from: "a", to: "b" },
          { from: "b", to: "a" },
          { from: "b", to: "c" },
        ],
      ),
    ).toEqual([["a", "b"]]);
    expect(unitOf("server/src/modules/workflows/pipeline/steps.ts")).toBe("server/src/modules/workflows");
  });
});

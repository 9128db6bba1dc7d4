// The server's layers point one way and nothing imports itself round a loop. Read from the sources'
// imports (the TypeScript parser, no build), so a new cycle or an import up the layers fails CI here.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycles, type ImportEdge, importGraph } from "./support/import-graph.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The layers, lowest first; a file may import its own layer and the layers below it, never above.
 * - schema: the shapes of inputs and outputs, shared with the web.
 * - foundation: what any process needs before it knows the domain: configuration, the database, the
 *   log, the error types, the message bus (`bus/`), pushable streams (`streams/`), the job queue, media
 *   storage and rate limits. It is told what it needs (a predicate, a lookup) rather than importing the domain.
 * - domain: `modules/<area>`, and `request-context.ts`, the shape of the services and of who is asking
 *   that every domain function receives.
 * - operations: the catalogue of operations, each an access rule, an input schema and a domain call.
 * - transports: what calls the operations or the domain from outside: HTTP, tRPC, GraphQL, the REST
 *   adapter package, their shared `front-door/` (limits, origins, the request's context), and the background workers (they take jobs from the queue as a transport takes
 *   requests from the network).
 * - composition: the entry points and `services.ts`, which wires a process together.
 */
const LAYERS: Array<{ name: string; paths: string[] }> = [
  { name: "schema", paths: ["schema/src/"] },
  {
    name: "foundation",
    paths: [
      "server/src/config/",
      "server/src/db/",
      "server/src/logging/",
      "server/src/errors.ts",
      "server/src/bus/",
      "server/src/streams/",
      "server/src/queue/",
      "server/src/media/",
      "server/src/rate-limit/",
    ],
  },
  { name: "domain", paths: ["server/src/modules/", "server/src/request-context.ts"] },
  { name: "operations", paths: ["server/src/operations/"] },
  {
    name: "transports",
    paths: [
      "server/src/front-door/",
      "server/src/http/",
      "server/src/trpc/",
      "server/src/graphql/",
      "server/src/mcp/",
      "rest-adapter/src/",
      "server/src/workers/",
    ],
  },
  { name: "composition", paths: ["server/src/main.ts", "server/src/worker.ts", "server/src/index.ts", "server/src/services.ts"] },
];

/**
 * One exception, a declaration rather than a dependency: each operation states its REST path and
 * method in the REST adapter's own vocabulary (`RestBinding`, a type, erased at run time). The adapter
 * package imports nothing of the server, so this cannot close a loop.
 */
const ALLOWED_UPWARD: Array<{ from: string; to: string }> = [
  { from: "server/src/operations/operation.ts", to: "rest-adapter/src/index.ts" },
];

function layerOf(file: string): number {
  const layer = LAYERS.findIndex(({ paths }) => paths.some((path) => file === path || file.startsWith(path)));
  if (layer < 0) throw new Error(`${file} is in no layer: add its folder to LAYERS in import-layers.test.ts`);
  return layer;
}

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

describe("import layers", () => {
  it("puts every source file in a layer", () => {
    expect(graph.files.length).toBeGreaterThan(300);
    for (const file of graph.files) layerOf(file);
  });

  it("has no import cycle between files", () => {
    const found = cycles(graph.files, runtime).map((cycle) => cycle.join(" → "));
    expect(found).toEqual([]);
  });

  it("has no import cycle between module folders", () => {
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

  it("imports nothing from a higher layer (type-only imports too)", () => {
    const upward = graph.edges
      .filter(({ from, to }) => layerOf(to) > layerOf(from))
      .filter(({ from, to }) => !ALLOWED_UPWARD.some((allowed) => allowed.from === from && allowed.to === to))
      .map(({ from, to }) => `${from} (${LAYERS[layerOf(from)]?.name}) → ${to} (${LAYERS[layerOf(to)]?.name})`);
    expect(upward).toEqual([]);
  });

  it("finds the cycles and upward imports it looks for", () => {
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
    expect(layerOf("server/src/modules/auth/signup.ts")).toBeGreaterThan(layerOf("server/src/config/env.ts"));
    expect(unitOf("server/src/modules/workflows/pipeline/steps.ts")).toBe("server/src/modules/workflows");
  });
});

// The house rules for imports, checked by `pnpm lint` (dependency-cruiser). Layers point one way:
// schema ← foundation (db/config/…) ← domain ← operations ← transports ← composition (main).
// A file may import its own layer and the layers below it; nothing imports itself round a loop,
// type-only imports included (a loop of types still ties the files' meaning together).

/** The layers, lowest first, as path patterns relative to the repository root. */
const LAYERS = [
  { name: "schema", path: "^schema/src/" },
  {
    name: "foundation",
    // What any process needs before it knows the domain: configuration, the database, the log, the
    // error types, the message bus, pushable streams, the job queue, media storage and rate limits.
    path: "^server/src/(config|db|logging|bus|streams|queue|media|rate-limit)/|^server/src/errors\\.ts$",
  },
  // `modules/<area>`, and `request-context.ts`: the shape of the services and of who is asking.
  { name: "domain", path: "^server/src/modules/|^server/src/request-context\\.ts$" },
  { name: "operations", path: "^server/src/operations/" },
  {
    name: "transports",
    // HTTP, tRPC, GraphQL, MCP, the REST adapter package, their shared front door, and the background
    // workers (they take jobs from the queue as a transport takes requests from the network).
    path: "^server/src/(front-door|http|trpc|graphql|mcp|workers)/|^rest-adapter/src/",
  },
  { name: "composition", path: "^server/src/(main|worker|index|services)\\.ts$" },
];

/**
 * One declared exception: each operation states its REST path and method in the REST adapter's own
 * vocabulary (`RestBinding`, a type, erased at run time). The adapter imports nothing of the server.
 */
const ALLOWED_UPWARD = "^server/src/operations/operation\\.ts$";

const upward = LAYERS.flatMap((layer, index) => {
  const higher = LAYERS.slice(index + 1);
  if (higher.length === 0) return [];
  return [
    {
      name: `layers-${layer.name}-imports-up`,
      comment: `${layer.name} may import only its own layer and those below it (README: schema ← db/config ← domain ← operations ← transports ← main)`,
      severity: "error",
      from: { path: layer.path, pathNot: layer.name === "operations" ? ALLOWED_UPWARD : undefined },
      to: { path: higher.map((h) => `(${h.path})`).join("|") },
    },
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle: break it by moving the shared types into the room's types.ts.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "in-a-layer",
      comment: "Every server source file belongs to a layer: add its folder to LAYERS in .dependency-cruiser.cjs.",
      severity: "error",
      from: { path: "^server/src/", pathNot: LAYERS.map((l) => `(${l.path})`).join("|") },
      to: {},
    },
    ...upward,
    {
      name: "operations-import-rest-adapter-types-only",
      comment: "The one upward import is the RestBinding type; anything at run time would tie operations to a transport.",
      severity: "error",
      from: { path: ALLOWED_UPWARD },
      to: { path: "^rest-adapter/src/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    combinedDependencies: false,
  },
};

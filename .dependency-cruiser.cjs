/**
 * The house rules (issue 18): the arrows between the layers, checked on every `npm test`
 * (`npm run lint:arch`). Dependencies flow app → components, server → lib; lib is the
 * framework-free core; the CLI and scripts sit beside app and may use server and lib.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-is-framework-free",
      comment:
        "lib/ imports nothing of next, react, auth, databases or the AI SDK: it runs anywhere (CLI, workers, tests) and is tested without a server. Pure libraries (zod, the tokenizer) are fine.",
      severity: "error",
      from: { path: "^lib/" },
      to: {
        path: "^(node_modules/(next|react|react-dom|next-auth|@prisma/[^/]+|prisma|pg|pg-boss|better-sqlite3|ai|@ai-sdk/[^/]+|@aws-sdk/[^/]+|server-only|protobufjs)/|generated/)",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "lib-has-no-node-built-ins",
      comment: "No fs, path, crypto or process in lib/: files, clocks and secrets reach it as parameters.",
      severity: "error",
      from: { path: "^lib/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "lib-below-every-layer",
      comment: "Not even types from the outer layers: lib's types are the contract they import.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(server|app|components|cli|scripts)/" },
    },
    {
      name: "components-use-server-as-types-only",
      comment: "Client components reach the server through actions and routes; a value import would pull server code (and secrets) into the browser bundle.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "server-below-the-ui",
      comment: "server/ holds side effects for the app, the CLI and the workers; it never imports pages, components or commands.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(app|components|cli)/" },
    },
    {
      name: "judge-is-independent",
      comment:
        "The dependency judge grades every policy: it shares no code with any policy or planner (issue 16), so no policy can be written against its rules.",
      severity: "error",
      from: { path: "^lib/evaluation/judge/" },
      to: { path: "^lib/(policies|planner)/|^lib/compaction/context/(anchors|route-hint)" },
    },
    {
      name: "no-folder-cycles",
      comment: "Two folders that import each other are one room split in two: merge them or move the shared part down.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(\\.next|dist|tests|e2e|scripts/bench)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};

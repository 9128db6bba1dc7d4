// The MCP tool list as the catalogue makes it, without a running service: names every client accepts, object
// schemas at the root, the prompts' tools exist, and docs/agents.md lists the tools as they are made.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { operations } from "../src/operations/catalogue.ts";
import { PROMPTS } from "../src/mcp/prompts.ts";
import { spendingRuleOf } from "../src/mcp/spending.ts";
import { notAToolBecause, toolNameOf, toolOf } from "../src/mcp/tool-list.ts";

const tools = operations.filter((op) => notAToolBecause(op) === null).map((op) => ({ op, tool: toolOf(op) }));

describe("the MCP tools, from the catalogue", () => {
  it("names each operation's tool in the alphabet every client accepts, once", () => {
    for (const { tool } of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(tools.map((t) => t.tool.name)).size).toBe(tools.length);
  });

  it("gives every tool an object input schema, and an output schema when the operation answers data", () => {
    for (const { op, tool } of tools) {
      expect(tool.inputSchema.type, op.name).toBe("object");
      if (op.output && op.kind !== "download") expect(tool.outputSchema?.type, op.name).toBe("object");
    }
  });

  it("only uploads are not tools, each with its reason", () => {
    const left = operations.filter((op) => notAToolBecause(op) !== null);
    expect(left.every((op) => op.kind === "upload")).toBe(true);
    for (const op of left) expect(notAToolBecause(op)).toMatch(/^\w.{10,}/);
  });

  it("the prompts name tools that exist", () => {
    const names = new Set(tools.map((t) => t.tool.name));
    for (const prompt of PROMPTS) for (const tool of prompt.tools) expect(names.has(tool), `${prompt.name}: ${tool}`).toBe(true);
  });

  it("docs/agents.md lists every tool as the catalogue makes it", () => {
    const table = ["| tool | operation | what it does | kind |", "| --- | --- | --- | --- |"]
      .concat(
        tools.map(({ op, tool }) => {
          const notes = [
            tool.annotations.readOnlyHint ? "read-only" : tool.annotations.destructiveHint ? "destructive" : "changes",
            ...(spendingRuleOf(op.name) ? ["spends credits: confirmCost"] : []),
            ...(op.access === "admin" ? ["admins only"] : []),
          ];
          return `| \`${tool.name}\` | \`${op.name}\` | ${op.summary.split(/[:(]/)[0]!.replace(/\|/g, "/").trim()} | ${notes.join(", ")} |`;
        }),
      )
      .join("\n");
    const doc = new URL("../../docs/agents.md", import.meta.url);
    const [start, end] = ["<!-- mcp-tools:start -->", "<!-- mcp-tools:end -->"];
    // The generator: UPDATE_AGENTS_DOC=1 writes the table between the markers (then `npx biome check --write
    // docs/agents.md` pads it); without it, this fails on any difference and prints the expected table.
    if (process.env.UPDATE_AGENTS_DOC) {
      const text = readFileSync(doc, "utf8");
      writeFileSync(doc, `${text.split(start)[0]}${start}\n${table}\n${end}${text.split(end)[1] ?? "\n"}`);
    }
    const listed = readFileSync(doc, "utf8").split(start)[1]?.split(end)[0]?.trim() ?? "";
    const cells = (markdown: string) =>
      markdown.split("\n").map((line) =>
        line
          .split("|")
          .map((cell) => cell.trim().replace(/^-+$/, "---"))
          .join("|"),
      );
    expect(cells(listed), `docs/agents.md between the mcp-tools markers should be:\n${table}`).toEqual(cells(table));
  });

  it("keeps the tool name derivation one-to-one with operation names", () => {
    expect(toolNameOf("workflow.launch")).toBe("workflow_launch");
    expect(toolNameOf("user.balanceChanges")).toBe("user_balanceChanges");
  });
});

// The cost check before an operation runs: only a document that pages by a variable (`first: $n`) is
// reckoned again with its values; any other was reckoned exactly while validating (cached per document),
// so the per-request check is skipped for it.
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { pagesByVariable } from "../src/graphql/cost.ts";

describe("the cost check with variables", () => {
  it("is needed only for a document that pages by a variable", () => {
    expect(pagesByVariable(parse("{ userProfile { id email } }"))).toBe(false);
    expect(pagesByVariable(parse("query($id: ID!) { node(id: $id) { id } }"))).toBe(false);
    expect(pagesByVariable(parse("{ viewer { projects(first: 50) { totalCount } } }"))).toBe(false);
    expect(pagesByVariable(parse("query($n: Int) { viewer { projects(first: $n) { totalCount } } }"))).toBe(true);
    expect(pagesByVariable(parse("query($n: Int) { viewer { ...P } } fragment P on Account { brands(last: $n) { totalCount } }"))).toBe(
      true,
    );
  });

  it("answers once per document", () => {
    const document = parse("query($n: Int) { viewer { projects(first: $n) { totalCount } } }");
    expect(pagesByVariable(document)).toBe(true);
    expect(pagesByVariable(document)).toBe(true);
  });
});

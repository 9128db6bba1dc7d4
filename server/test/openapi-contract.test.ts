// The OpenAPI document as clients and validators read it: downloads are files with their
// content types, not the JSON envelope; POST /workflow documents the body its `respond` really sends;
// webhooks take raw JSON; HEAD /health is there; path parameters keep their enums; only standard formats;
// titled schemas are named components; every operation says what it answers and its errors.
import { buildOpenApi } from "@adgen/rest-adapter";
import { describe, expect, it } from "vitest";
import { restRoutes } from "./support/rest-routes.ts";

const doc = buildOpenApi(restRoutes) as any;
const op = (method: string, path: string) => doc.paths[path]?.[method];

/** A part of the document with its `$ref` (to a shared component) followed. */
function deref(node: any): any {
  if (!node?.$ref) return node;
  return deref(
    (node.$ref as string)
      .slice(2)
      .split("/")
      .reduce((at: any, key: string) => at?.[key], doc),
  );
}

/** Every `$ref` in the document, with where it is. */
function refs(node: unknown, at = "#", found: { at: string; ref: string }[] = []) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) refs(item, `${at}/${i}`, found);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push({ at, ref: value });
      else refs(value, `${at}/${key}`, found);
    }
  }
  return found;
}

describe("downloads", () => {
  const downloads = restRoutes.filter((r) => r.source.kind === "download");

  it("answer their own content types, never the JSON envelope", () => {
    expect(downloads.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "GET /chat/speech/{file}",
        "GET /export",
        "GET /export/{id}/download",
        "GET /media/{jobId}/{file}",
        "GET /user/brand/media/{id}/file",
        "GET /user/brand/media/{id}/poster",
        "GET /user/projects/export",
        "GET /webhook/meta",
        "POST /invoice/generate",
      ]),
    );
    for (const r of downloads) {
      expect(r.source.rest.produces?.length, `${r.path} names the content types it answers (rest.produces)`).toBeGreaterThan(0);
      const content = op(r.method.toLowerCase(), r.path).responses["200"].content;
      for (const [type, media] of Object.entries<any>(content)) {
        expect(media.schema.properties?.success, `${r.path} ${type}`).toBeUndefined();
      }
    }
  });

  it("name each type: the invoice is a PDF, the export CSV or ZIP, the meta challenge plain text", () => {
    expect(op("post", "/invoice/generate").responses["200"].content).toEqual({
      "application/pdf": { schema: { type: "string", format: "binary", contentMediaType: "application/pdf" } },
    });
    expect(Object.keys(op("get", "/user/projects/export").responses["200"].content)).toEqual(["text/csv", "application/zip"]);
    expect(op("get", "/webhook/meta").responses["200"].content).toEqual({ "text/plain": { schema: { type: "string" } } });
    expect(Object.keys(op("get", "/chat/speech/{file}").responses["200"].content)).toEqual(["audio/wav"]);
    expect(Object.keys(op("get", "/export").responses["200"].content)).toEqual(
      expect.arrayContaining(["video/mp4", "image/png", "application/json"]),
    );
  });

  it("served with byte ranges also document 206 and 416", () => {
    for (const path of ["/media/{jobId}/{file}", "/user/brand/media/{id}/file"]) {
      const responses = op("get", path).responses;
      expect(responses["206"].content, path).toEqual(responses["200"].content);
      expect(responses["416"], path).toBeDefined();
    }
  });
});

describe("POST /workflow", () => {
  it("documents the body `respond` sends: cost, message and jobId beside data, replays as a header", () => {
    const ok = op("post", "/workflow").responses["200"];
    const schema = ok.content["application/json"].schema;
    expect(schema.required.sort()).toEqual(["cost", "data", "jobId", "message", "success"]);
    expect(schema.properties.cost).toEqual({ type: "integer", minimum: expect.any(Number), maximum: expect.any(Number) });
    const data = doc.components.schemas[schema.properties.data.$ref.split("/").pop()];
    expect(data.required).not.toContain("cost");
    expect(Object.keys(data.properties)).not.toContain("replayed");
    expect(ok.headers["Idempotent-Replayed"]).toMatchObject({ schema: { type: "string" } });
  });
});

describe("request and parameter schemas", () => {
  it("webhooks take the provider's JSON as raw bytes, documented as application/json", () => {
    for (const provider of ["stripe", "paddle", "lemonsqueezy", "meta"]) {
      const body = op("post", `/webhook/${provider}`).requestBody;
      expect(Object.keys(body.content), provider).toEqual(["application/json"]);
    }
  });

  it("HEAD /health is documented beside GET, without a body", () => {
    const head = op("head", "/health");
    expect(head).toMatchObject({ operationId: "health.check.head", security: [] });
    expect(head.responses["200"].content).toBeUndefined();
  });

  it("path parameters keep the input's schema: /voice/{voiceProvider} is the elevenlabs enum", () => {
    const voice = Object.entries<any>(doc.paths).find(([path]) => path.includes("{voiceProvider}"));
    expect(voice).toBeDefined();
    const parameter = Object.values<any>(voice![1])[0].parameters.find((p: any) => p.name === "voiceProvider");
    expect(parameter.schema).toEqual({ type: "string", enum: ["elevenlabs"] });
  });

  it("uses standard formats: e-mail and date-time, never zod's starts_with", () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"format":"(starts_with|ends_with|includes)"/);
    const signup = deref(op("post", "/auth/signup").requestBody).content["application/json"].schema;
    expect(signup.properties.email.format).toBe("email");
    expect(text.match(/"format":"date-time"/g)!.length).toBeGreaterThan(50);
    expect(JSON.stringify(doc.components.schemas.Project)).toMatch(/"created_at":\{[^}]*"format":"date-time"/);
  });

  it("moderation notices require a name and e-mail unless the category may be anonymous", () => {
    const schema = deref(op("post", "/moderation/report").requestBody).content["application/json"].schema;
    expect(schema.if).toEqual({ properties: { category: { enum: ["child_sexual_abuse"] } }, required: ["category"] });
    expect(schema.else).toMatchObject({ required: ["reporterName", "reporterEmail"] });
  });
});

describe("named schemas and descriptions", () => {
  it("titled schemas are components, referenced where they are used, and every reference resolves", () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining(["Project", "User", "Job", "KnowledgeItem", "LaunchData", "ReviewScene"]));
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(100);
    for (const { at, ref } of all) {
      expect(ref, at).toMatch(/^#\/components\/(schemas|responses|headers|requestBodies)\/[A-Za-z0-9._-]+$/);
      expect(deref({ $ref: ref }), `${at} → ${ref}`).toBeDefined();
    }
    expect(op("get", "/user/projects").responses["200"].content["application/json"].schema.properties.data).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/Project" },
    });
  });

  it("every operation has a description that says what it answers and lists its errors", () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        expect(operation.description, `${method} ${path}`).toMatch(
          /^.+\.\n\nAnswers .+\n\nErrors \(`\{ success: false, error \}`\):\n- 400: /s,
        );
        for (const status of Object.keys(operation.responses).filter((s) => Number(s) >= 400 && s !== "416")) {
          expect(operation.description, `${method} ${path} ${status}`).toContain(`- ${status}: `);
        }
      }
    }
  });
});

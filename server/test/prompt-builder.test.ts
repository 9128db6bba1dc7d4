// SPEC 4.6, the zero-token prompt builder, over REST, tRPC and GraphQL: the published schema (builders,
// their fields, camera specs, styles, lexicon), built prompts that keep what was given, scores that
// reward a richer prompt, suggestions naming what is missing, deterministic answers, and 400s naming
// the field on every transport.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPrompt } from "../src/modules/prompt-builder/build-prompt.ts";
import { STYLES } from "../src/modules/prompt-builder/vocabulary.ts";
import { LIGHTING_CONFLICTS } from "../src/modules/prompt-builder/vocabulary.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let rest: RestClient;
let trpc: ReturnType<typeof trpcClient>;
beforeAll(async () => {
  app = await startTestApp();
  rest = new RestClient(app.url);
  trpc = trpcClient(app.url);
});
afterAll(() => app?.close());

const BUILDERS = ["image", "video-cinematic", "video-ugc"];
const FIELDS = ["subject", "context", "style", "quality", "lighting", "camera", "negative"];

const RICH = {
  subject: "a matte black ceramic coffee mug with steam rising",
  context: "on a walnut desk by a rainy window",
  style: "studio-product",
  quality: "highly detailed, sharp focus",
  lighting: "softbox, rim light",
  camera: "100mm, close-up, eye level",
  negative: ["blurry", "watermark", "fingerprints on the glaze"],
};

const BUILD_GQL = `mutation($builder: String!, $params: PromptParamsInput!) {
  promptBuilderBuild(builder: $builder, params: $params) {
    builder family positive negative score grade suggestions
    formatted { diffusion video natural }
    breakdown { criterion label points max note }
    parts { subject lighting styleId camera { text lens shotSize angle movement recognised } negative }
  }
}`;

async function trpcError(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<any>;
  return { code: e.data?.code, httpStatus: e.data?.httpStatus, message: e.message, fields: e.data?.fields };
}

describe("GET /prompt-builder (promptBuilder.schema)", () => {
  it("answers the three builders with their field schemas, camera specs, styles and lexicon, without an account", async () => {
    const res = await rest.get("/prompt-builder");
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.version).toEqual(expect.any(String));
    expect(data.builders).toEqual(BUILDERS);
    expect(Object.keys(data.schemas)).toEqual(BUILDERS);
    for (const id of BUILDERS) {
      const schema = data.schemas[id];
      expect(schema.id).toBe(id);
      expect(schema.fields.map((f: { name: string }) => f.name)).toEqual(FIELDS);
      const byName = Object.fromEntries(schema.fields.map((f: { name: string }) => [f.name, f]));
      expect(byName.subject).toMatchObject({ type: "string", required: true, maxLength: 500 });
      expect(byName.negative).toMatchObject({ type: "string[]", required: false, maxItems: 20, maxLength: 500 });
      expect(byName.style.allowedValues).toEqual(expect.arrayContaining(["cinematic", "film-noir"]));
      expect(byName.camera.allowedValues).toEqual(expect.arrayContaining(["35mm", "close-up", "low angle"]));
      expect(["diffusion", "video", "natural"]).toContain(schema.family);
    }
    expect(data.schemas["video-cinematic"].fields.find((f: { name: string }) => f.name === "camera").allowedValues).toContain(
      "slow dolly in",
    );
    expect(data.camera.lenses.map((l: { focalLengthMm: number }) => l.focalLengthMm)).toEqual(expect.arrayContaining([24, 35, 50, 85]));
    for (const list of ["shotSizes", "angles", "movements"]) expect(data.camera[list].length).toBeGreaterThan(3);
    expect(data.cinematographyStyles["film-noir"]).toMatchObject({
      name: "Film Noir",
      lighting: expect.any(String),
      palette: expect.any(String),
      camera: expect.any(String),
      mood: expect.any(String),
    });
    expect(Object.keys(data.lexicon)).toEqual(["diffusion", "video", "natural"]);
    for (const family of Object.values(data.lexicon) as Record<string, string[]>[]) {
      for (const kind of ["quality", "lighting", "mood", "negative"]) expect(family[kind]!.length).toBeGreaterThan(3);
    }
    expect(data.scoring.criteria.reduce((sum: number, c: { max: number }) => sum + c.max, 0)).toBe(100);
    // Families, never providers.
    expect(JSON.stringify(data)).not.toMatch(/\b(fal|replicate|openai|midjourney|runway|stability|kling|veo|sora)\b/i);
  });

  it("answers the same schema on tRPC and GraphQL", async () => {
    const [viaRest, viaTrpc] = await Promise.all([rest.get("/prompt-builder"), trpc.promptBuilder.schema.query()]);
    expect(viaTrpc).toEqual(viaRest.body.data);
    const gql = await graphql(
      app.url,
      `{ promptBuilderSchema { version builders
          schemas { image { id fields { name required maxLength } } videoCinematic { id family } videoUgc { id family } }
          camera { lenses { id focalLengthMm } movements { id } }
          cinematographyStyles { filmNoir { name lighting palette camera mood } }
          lexicon { diffusion { quality negative } video { lighting } natural { mood } } } }`,
    );
    expect(gql.body.errors).toBeUndefined();
    const schema = gql.body.data.promptBuilderSchema;
    expect(schema.builders).toEqual(BUILDERS);
    expect(schema.schemas.image.fields.map((f: { name: string }) => f.name)).toEqual(FIELDS);
    expect(schema.schemas.image.fields[0]).toEqual({ name: "subject", required: true, maxLength: 500 });
    expect(schema.schemas.videoCinematic).toEqual({ id: "video-cinematic", family: "video" });
    expect(schema.schemas.videoUgc.id).toBe("video-ugc");
    expect(schema.cinematographyStyles.filmNoir.name).toBe("Film Noir");
    expect(schema.lexicon.diffusion.negative).toContain("blurry");
  });
});

describe("POST /prompt-builder (promptBuilder.build)", () => {
  it("builds a prompt that keeps the subject, lighting, camera and negatives given, per family", async () => {
    const res = await rest.post("/prompt-builder", {
      builder: "video-cinematic",
      params: {
        subject: "a runner crossing a bridge at dawn",
        lighting: "golden hour backlight",
        camera: "35mm, wide shot, tracking shot",
        negative: ["flicker", "extra limbs"],
      },
    });
    expect(res.status).toBe(200);
    const built = res.body.data;
    expect(built.builder).toBe("video-cinematic");
    expect(built.family).toBe("video");
    expect(built.positive).toContain("a runner crossing a bridge at dawn");
    expect(built.positive).toContain("golden hour backlight");
    expect(built.positive).toContain("35mm, wide shot, tracking shot");
    expect(built.negative).toContain("flicker");
    expect(built.negative).toContain("extra limbs");
    expect(Object.keys(built.formatted)).toEqual(["diffusion", "video", "natural"]);
    for (const text of Object.values(built.formatted) as string[]) expect(text).toContain("a runner crossing a bridge at dawn");
    expect(built.positive).toBe(built.formatted.video);
    expect(built.parts.camera).toEqual({
      text: "35mm, wide shot, tracking shot",
      lens: "35mm",
      shotSize: "wide shot",
      angle: null,
      movement: "tracking shot",
      recognised: true,
    });
    expect(built.parts.negative).toEqual(["flicker", "extra limbs"]);
    expect(built.breakdown.map((b: { criterion: string }) => b.criterion)).toEqual([
      "subjectClarity",
      "specificity",
      "lighting",
      "camera",
      "styleCoherence",
      "negatives",
    ]);
    expect(built.breakdown.reduce((sum: number, b: { points: number }) => sum + b.points, 0)).toBe(built.score);
    expect(built.breakdown.reduce((sum: number, b: { max: number }) => sum + b.max, 0)).toBe(100);
  });

  it("scores a bare prompt lower than a rich one, and suggests what is missing", async () => {
    for (const builder of BUILDERS) {
      const bare = (await rest.post("/prompt-builder", { builder, params: { subject: "a mug" } })).body.data;
      const rich = (await rest.post("/prompt-builder", { builder, params: RICH })).body.data;
      expect(bare.score, builder).toBeLessThan(rich.score);
      expect(bare.score).toBeLessThan(40);
      expect(rich.score).toBeGreaterThanOrEqual(80);
      const hints = bare.suggestions.join("\n");
      for (const missing of [/lens, such as \d+mm/, /lighting/i, /style/i, /negative/i, /context or setting/i, /subject in more detail/i]) {
        expect(hints, builder).toMatch(missing);
      }
      expect(rich.suggestions.length).toBeLessThan(bare.suggestions.length);
    }
    const video = (await rest.post("/prompt-builder", { builder: "video-cinematic", params: { subject: "a mug" } })).body.data;
    expect(video.suggestions).toContain("Add a lens, such as 35mm, for a cinematic look");
    expect(video.suggestions.join("\n")).toMatch(/camera movement, such as slow dolly in/);
  });

  it("keeps unknown style and camera words, but scores them below named ones", () => {
    const points = (built: ReturnType<typeof buildPrompt>, criterion: string) =>
      built.breakdown.find((b) => b.criterion === criterion)!.points;
    const unknown = buildPrompt("image", { subject: "a mug", style: "wobblecore", camera: "squinty view" });
    const named = buildPrompt("image", { subject: "a mug", style: "Minimalist", camera: "85mm close-up" });
    expect(unknown.positive).toContain("wobblecore");
    expect(unknown.positive).toContain("squinty view");
    expect(unknown.parts.styleId).toBeNull();
    expect(unknown.parts.camera.recognised).toBe(false);
    expect(named.parts.styleId).toBe("minimalist");
    expect(points(unknown, "styleCoherence")).toBeGreaterThan(0);
    expect(points(unknown, "styleCoherence")).toBeLessThan(points(named, "styleCoherence"));
    expect(points(unknown, "camera")).toBeGreaterThan(0);
    expect(points(unknown, "camera")).toBeLessThan(points(named, "camera"));
    expect(unknown.suggestions.join("\n")).toMatch(/Style "wobblecore" is not a named style/);
    expect(unknown.suggestions.join("\n")).toMatch(/Camera "squinty view" names no known lens/);
    // Each extra field scores higher.
    const steps = [
      { subject: "a mug" },
      { subject: "a matte black ceramic mug with steam rising" },
      { subject: "a matte black ceramic mug with steam rising", lighting: "soft light" },
      { subject: "a matte black ceramic mug with steam rising", lighting: "soft light", camera: "85mm" },
      { subject: "a matte black ceramic mug with steam rising", lighting: "soft light", camera: "85mm", negative: ["blurry"] },
    ];
    const scores = steps.map((params) => buildPrompt("image", params).score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(new Set(scores).size).toBe(scores.length);
  });

  it("lowers coherence when the lighting contradicts the style, and no style contradicts itself", () => {
    const coherence = (lighting: string) =>
      buildPrompt("image", { subject: "a detective in a rainy alley", style: "film-noir", lighting }).breakdown.find(
        (b) => b.criterion === "styleCoherence",
      )!;
    expect(coherence("low-key, hard light").points).toBeGreaterThan(coherence("high-key, soft light").points);
    expect(coherence("high-key, soft light").note).toMatch(/conflicts/);
    for (const style of Object.values(STYLES)) {
      const text = [style.lighting, style.palette, style.mood].join(" ").toLowerCase();
      for (const [a, b] of LIGHTING_CONFLICTS) expect(a.test(text) && b.test(text), style.id).toBe(false);
    }
  });

  it("answers the same build on REST, tRPC and GraphQL, and the same input always gives the same output", async () => {
    const input = { builder: "video-ugc", params: { ...RICH, style: "ugc selfie", camera: "smartphone front camera, handheld, close-up" } };
    const first = (await rest.post("/prompt-builder", input)).body.data;
    const second = (await rest.post("/prompt-builder", input)).body.data;
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(await trpc.promptBuilder.build.mutate(input as never)).toEqual(first);
    const gql = await graphql(app.url, BUILD_GQL, input);
    expect(gql.body.errors).toBeUndefined();
    const viaGql = gql.body.data.promptBuilderBuild;
    expect(viaGql).toMatchObject({
      builder: "video-ugc",
      family: first.family,
      positive: first.positive,
      negative: first.negative,
      score: first.score,
      suggestions: first.suggestions,
      formatted: first.formatted,
    });
    expect(viaGql.parts.styleId).toBe("ugc-selfie");
    expect(buildPrompt("video-ugc", input.params)).toEqual(first);
    // Whitespace and duplicate negatives are normalised away.
    const messy = buildPrompt("video-ugc", {
      ...input.params,
      subject: `  ${RICH.subject}  `,
      negative: [...RICH.negative, " Blurry ", ""],
    });
    expect(messy).toEqual(first);
  });

  it("refuses an unknown builder with a 400 naming the field, on every transport", async () => {
    const input = { builder: "video-anime", params: { subject: "a mug" } };
    const message = "The prompt builder must be one of image, video-cinematic, video-ugc";
    expect(await rest.post("/prompt-builder", input)).toMatchObject({ status: 400, body: { success: false, error: message } });
    expect(await trpcError(trpc.promptBuilder.build.mutate(input as never))).toEqual({
      code: "BAD_REQUEST",
      httpStatus: 400,
      message,
      fields: [{ field: "builder", message }],
    });
    const gql = await graphql(app.url, BUILD_GQL, input);
    expect(gql.body.errors).toEqual([
      expect.objectContaining({ message, extensions: { code: "BAD_REQUEST", status: 400, fields: [{ field: "builder", message }] } }),
    ]);
    const none = await rest.post("/prompt-builder", { params: { subject: "a mug" } });
    expect(none).toMatchObject({ status: 400, body: { error: "Choose a prompt builder: one of image, video-cinematic, video-ugc" } });
  });

  it("refuses a missing or blank subject with a 400 naming the field, on every transport", async () => {
    for (const params of [{}, { subject: "" }, { subject: "   " }, { context: "on a desk" }]) {
      const res = await rest.post("/prompt-builder", { builder: "image", params });
      expect(res, JSON.stringify(params)).toMatchObject({ status: 400, body: { success: false, error: "subject is required" } });
      expect(await trpcError(trpc.promptBuilder.build.mutate({ builder: "image", params } as never))).toEqual({
        code: "BAD_REQUEST",
        httpStatus: 400,
        message: "subject is required",
        fields: [{ field: "params.subject", message: "subject is required" }],
      });
    }
    const blank = await graphql(app.url, BUILD_GQL, { builder: "image", params: { subject: " " } });
    expect(blank.body.errors).toEqual([
      expect.objectContaining({
        message: "subject is required",
        extensions: { code: "BAD_REQUEST", status: 400, fields: [{ field: "params.subject", message: "subject is required" }] },
      }),
    ]);
    // On GraphQL the schema itself declares `subject: String!`, so leaving it out is refused before the
    // operation runs, naming the field.
    const missing = await graphql(app.url, `mutation { promptBuilderBuild(builder: "image", params: { context: "x" }) { score } }`);
    expect(missing.body.errors?.[0]?.message).toMatch(/PromptParamsInput\.subject.*String!.*not provided/);
    expect((await rest.post("/prompt-builder", { builder: "image" })).body.error).toBe("params is required (at least params.subject)");
  });

  it("refuses over-long fields and too many negatives, naming the field", async () => {
    const long = "x".repeat(501);
    for (const field of ["subject", "context", "style", "quality", "lighting", "camera"]) {
      const res = await rest.post("/prompt-builder", { builder: "image", params: { subject: "a mug", [field]: long } });
      expect(res, field).toMatchObject({ status: 400, body: { error: `${field} must be at most 500 characters` } });
    }
    const many = await rest.post("/prompt-builder", {
      builder: "image",
      params: { subject: "a mug", negative: Array.from({ length: 21 }, (_, i) => `defect ${i}`) },
    });
    expect(many).toMatchObject({ status: 400, body: { error: "negative must have at most 20 items" } });
    const longItem = await rest.post("/prompt-builder", { builder: "image", params: { subject: "a mug", negative: [long] } });
    expect(longItem.status).toBe(400);
    expect(longItem.body.error).toBe("params.negative.0: must be at most 500 characters");
    const exact = await rest.post("/prompt-builder", {
      builder: "image",
      params: { subject: "x".repeat(500), negative: Array.from({ length: 20 }, (_, i) => `defect ${i}`) },
    });
    expect(exact.status).toBe(200);
  });
});

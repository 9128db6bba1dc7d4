// The studio shows each workflow type the fields it uses and no other (schema/src/studio-fields.ts).
import { describe, expect, it } from "vitest";
import {
  modelKindsFor,
  STUDIO_FIELDS,
  studioFields,
  urlFallsBackToBrandWebsite,
  urlRole,
  usesField,
  WORKFLOW_TYPES,
  WorkflowRequest,
} from "../src/index.ts";

describe("studio fields per workflow type", () => {
  it("asks for a url where the type needs one: required for clone and factory, a fallback for brand and local audit, none for the optimizer", () => {
    expect(studioFields("clone").url).toBe("required");
    expect(studioFields("factory").url).toBe("required");
    expect(studioFields("cinematic").url).toBe("optional");
    expect(studioFields("local-audit").url).toBe("optional");
    expect(urlRole("local-audit")).toBe("business");
    expect(urlFallsBackToBrandWebsite("local-audit")).toBe(true);
    expect(urlFallsBackToBrandWebsite("brand")).toBe(true);
    expect(urlFallsBackToBrandWebsite("cinematic")).toBe(false);
    expect(urlRole("clone")).toBe("reference");
    // With no website to fall back to, the page must be given.
    expect(studioFields("local-audit", { brandHasWebsite: false }).url).toBe("required");
    expect(studioFields("local-audit", { brandHasWebsite: true }).url).toBe("optional");
    expect(studioFields("cinematic", { brandHasWebsite: false }).url).toBe("optional");
    // A brand film can be made from the profile alone.
    expect(studioFields("brand", { brandHasWebsite: false }).url).toBe("optional");
    expect(usesField("ad-optimizer", "url")).toBe(false);
  });

  it("agrees with the launch schema on which types refuse a missing url", () => {
    for (const type of WORKFLOW_TYPES) {
      const refused = !WorkflowRequest.safeParse({ type }).success;
      expect(studioFields(type).url === "required", type).toBe(refused);
    }
  });

  it("offers imagesOnly to factory runs only, and project to the optimizer only", () => {
    const withImagesOnly = WORKFLOW_TYPES.filter((t) => usesField(t, "imagesOnly"));
    const withProject = WORKFLOW_TYPES.filter((t) => usesField(t, "project"));
    expect(withImagesOnly).toEqual(["factory"]);
    expect(withProject).toEqual(["ad-optimizer"]);
  });

  it("agrees with the launch schema that project belongs to the optimizer", () => {
    for (const type of WORKFLOW_TYPES) {
      const accepted = WorkflowRequest.safeParse({ type, url: "https://example.com/", project: "p1" }).success;
      expect(accepted, type).toBe(usesField(type, "project"));
    }
  });

  it("shows only the model kinds a type makes: a voice for narrated types, no video for still ads", () => {
    expect(modelKindsFor("avatar")).toEqual(["image", "video", "voice"]);
    expect(modelKindsFor("influencer")).toEqual(["image", "video", "voice"]);
    expect(modelKindsFor("cinematic")).toEqual(["image", "video"]);
    expect(modelKindsFor("staticad")).toEqual(["image"]);
    expect(modelKindsFor("factory", true)).toEqual(["image"]);
    expect(usesField("staticad", "models.video")).toBe(false);
    expect(usesField("factory", "models.video", { imagesOnly: true })).toBe(false);
    expect(usesField("factory", "models.video")).toBe(true);
    expect(usesField("avatar", "models.voice")).toBe(true);
    expect(usesField("cinematic", "models.voice")).toBe(false);
  });

  it("offers no copy framework where the type's structure is fixed (clone follows its reference, painpoint is PAS)", () => {
    expect(usesField("clone", "framework")).toBe(false);
    expect(usesField("painpoint", "framework")).toBe(false);
    expect(usesField("cinematic", "framework")).toBe(true);
  });

  it("lets the optimizer keep its source ad's look: no framework, preset or season to choose", () => {
    for (const field of ["framework", "adPreset", "seasonal"] as const) expect(usesField("ad-optimizer", field)).toBe(false);
    expect(usesField("ad-optimizer", "concept")).toBe(true);
    expect(studioFields("ad-optimizer").project).toBe("optional");
  });

  it("gives every type a quality, formats and a concept, and names only known fields", () => {
    for (const type of WORKFLOW_TYPES) {
      const fields = studioFields(type);
      expect(fields.quality, type).toBeDefined();
      expect(fields.formats, type).toBeDefined();
      expect(fields.concept, type).toBeDefined();
      for (const field of Object.keys(fields)) expect(STUDIO_FIELDS).toContain(field);
    }
    expect(usesField("no-such-type", "concept")).toBe(false);
  });
});

// The brand media library: product photos uploaded as multipart/form-data (PNG, JPEG or WebP, judged by
// their content as well as their name), streamed to disk and refused past 10 MB, at most 20 per account,
// decoded to check they are real pictures of a usable size, served only to their owner, and deleted with
// their file. Listing and deleting work on every transport; the upload is REST only.
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listBrandMedia } from "../src/modules/brand/brand-media.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let stranger: Account;
beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "media-owner");
  stranger = await signUp(app, "media-stranger");
});
afterAll(() => app?.close());

/** A real picture: two coloured blocks, encoded by Skia. */
async function picture(format: "png" | "jpeg" | "webp", width = 320, height = 240): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext("2d");
  g.fillStyle = "#e0533a";
  g.fillRect(0, 0, width, height);
  g.fillStyle = "#1f4fd1";
  g.fillRect(width / 4, height / 4, width / 2, height / 2);
  return Buffer.from(await canvas.encode(format as "png"));
}

async function upload(account: Account, bytes: Uint8Array, filename: string, type = "application/octet-stream") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${account.jwt}` }, body: form });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: any; error?: string } };
}

async function getFile(account: Account | null, url: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: account ? { cookie: `session=${account.jwt}` } : {} });
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

const list = async (account: Account) => (await account.client.get("/user/brand/media")).body.data as any[];
const storedFiles = (account: Account) => {
  const dir = join(app.config.dataDir, "media", "brand", account.id);
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function clearLibrary(account: Account) {
  for (const item of await list(account)) {
    expect((await account.client.call("DELETE", `/user/brand/media/${item.id}`)).status).toBe(200);
  }
}

describe("uploading", () => {
  it("accepts PNG, JPEG and WebP photos and lists them with their size, type and a URL serving the same bytes", async () => {
    const cases = [
      { format: "png", name: "bottle.png", mime: "image/png", size: [320, 240] },
      { format: "jpeg", name: "Bottle Side.JPG", mime: "image/jpeg", size: [640, 400] },
      { format: "webp", name: "pack.webp", mime: "image/webp", size: [300, 500] },
    ] as const;
    const uploaded: any[] = [];
    for (const c of cases) {
      const bytes = await picture(c.format, c.size[0], c.size[1]);
      const res = await upload(owner, bytes, c.name, c.mime);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ width: c.size[0], height: c.size[1], bytes: bytes.length, mime: c.mime, filename: c.name });
      const file = await getFile(owner, res.body.data.url);
      expect(file.status).toBe(200);
      expect(file.type).toBe(c.mime);
      expect(file.body.equals(bytes)).toBe(true);
      uploaded.push(res.body.data);
    }
    const listed = await list(owner);
    expect(listed.map((m) => m.id)).toEqual(uploaded.map((m) => m.id));
    expect(listed[0]).toEqual(uploaded[0]);
    // Without a role, a photo is a product photo, as before roles existed.
    expect(listed[0]).toMatchObject({ role: "product", kind: "image", durationSec: null, posterUrl: null, consent: null });
    expect(storedFiles(owner)).toHaveLength(3);

    // What the pipeline reads: the stored files' keys and pixel sizes, oldest first.
    const forAds = await listBrandMedia(app.services.prisma, owner.id);
    expect(forAds.map((m) => [m.width, m.height])).toEqual(cases.map((c) => [...c.size]));
    for (const item of forAds) expect(existsSync(await app.services.media.localFile(item.key))).toBe(true);
    await clearLibrary(owner);
  });

  it("judges by content: an executable renamed .png is a 400 saying what is accepted, and nothing is stored", async () => {
    // An ELF header, as a Linux executable starts, under an image's name and type.
    const exe = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4000, 0x90)]);
    const res = await upload(owner, exe, "holiday.png", "image/png");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/not a PNG, JPEG or WebP image/);
    expect(res.body.error).toContain("holiday.png");
    expect(await list(owner)).toEqual([]);
    expect(storedFiles(owner)).toEqual([]);
  });

  it("judges by name too: a real PNG called setup.exe is refused", async () => {
    const res = await upload(owner, await picture("png"), "setup.exe");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/\.png, \.jpg, \.jpeg, \.webp/);
    expect(await list(owner)).toEqual([]);
  });

  it("refuses a damaged picture (a PNG cut in half) and pictures too small or too large", async () => {
    const whole = await picture("png", 400, 300);
    const cut = await upload(owner, whole.subarray(0, Math.floor(whole.length / 2)), "cut.png");
    expect(cut.status).toBe(400);
    expect(cut.body.error).toMatch(/could not be read as a picture/);

    const tiny = await upload(owner, await picture("jpeg", 180, 400), "tiny.jpg");
    expect(tiny.status).toBe(400);
    expect(tiny.body.error).toMatch(/180×400 px.*at least 200 px/);

    // A PNG whose header says 9000 px wide is refused from the header, before anything is decoded.
    const huge = Buffer.from(await picture("png", 300, 300));
    huge.writeUInt32BE(9000, 16);
    const big = await upload(owner, huge, "huge.png");
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/9000×300 px.*at most 8000 px/);
    expect(await list(owner)).toEqual([]);
    expect(storedFiles(owner)).toEqual([]);
  });

  it("refuses a photo over 10 MB with a 400 saying the limit, one over 50 MB with 413 while it streams in, and stores nothing", async () => {
    const png = await picture("png");
    const oversize = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    const res = await upload(owner, oversize, "poster.png", "image/png");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/photos may be at most 10 MB/);
    // Past the largest upload of any kind (a 50 MB clip), the stream itself is cut off.
    const streamed = await upload(owner, Buffer.concat([png, Buffer.alloc(50 * 1024 * 1024 + 1 - png.length)]), "poster.png", "image/png");
    expect(streamed.status).toBe(413);
    expect(streamed.body.error).toMatch(/larger than 50 MB/);
    expect(await list(owner)).toEqual([]);
    expect(storedFiles(owner)).toEqual([]);
    // Exactly 10 MB is judged by its content.
    const padded = await upload(owner, Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 - png.length)]), "poster.png");
    expect(padded.status).not.toBe(413);
    expect(padded.body.error ?? "").not.toMatch(/at most 10 MB/);
    await clearLibrary(owner);
  });

  it("refuses at once, from Content-Length, an upload far beyond the limit, without reading it", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const target = new URL(`${app.url}/api/user/brand/media`);
      const req = http.request(target, {
        method: "POST",
        headers: {
          cookie: `session=${owner.jwt}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": "200000000",
        },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      // The server answers and closes while the client still means to send: expected here.
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (!["EPIPE", "ECONNRESET"].includes(error.code ?? "")) reject(error);
      });
      req.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toBe("Request body is larger than 53 MB");
    expect(storedFiles(owner)).toEqual([]);
  });

  it("says how to send the file when the request is not multipart or has no file part", async () => {
    const json = await owner.client.post("/user/brand/media", { file: "/etc/passwd" });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/multipart\/form-data, in the part named file/);

    const form = new FormData();
    form.append("note", "no file here");
    const res = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", headers: { cookie: `session=${owner.jwt}` }, body: form });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^file is required/);

    const anonymous = await fetch(`${app.url}/api/user/brand/media`, { method: "POST", body: new FormData() });
    expect(anonymous.status).toBe(401);

    // The API document says the same: a multipart body whose part `file` is the image's bytes.
    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as any;
    const body = doc.paths["/user/brand/media"].post.requestBody.content["multipart/form-data"].schema;
    expect(body.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(body.required).toEqual(["file"]);
  });

  it("holds at most 20 images: the 21st is a 400 and stores nothing", { timeout: 60_000 }, async () => {
    const bytes = await picture("jpeg", 240, 240);
    for (let i = 1; i <= 20; i += 1) {
      const res = await upload(owner, bytes, `photo-${i}.jpg`);
      expect(res.status, `upload ${i}: ${res.body.error}`).toBe(200);
    }
    const res = await upload(owner, bytes, "photo-21.jpg");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/already holds 20 images.*delete one/);
    expect(await list(owner)).toHaveLength(20);
    expect(storedFiles(owner)).toHaveLength(20);
    await clearLibrary(owner);
    expect(storedFiles(owner)).toEqual([]);
  });
});

describe("owning", () => {
  it("serves and deletes a photo for its owner only; for anyone else it does not exist (404)", async () => {
    const bytes = await picture("webp", 400, 400);
    const { body } = await upload(owner, bytes, "mine.webp");
    const item = body.data;

    expect((await getFile(stranger, item.url)).status).toBe(404);
    expect((await getFile(null, item.url)).status).toBe(401);
    expect((await stranger.client.call("DELETE", `/user/brand/media/${item.id}`)).status).toBe(404);
    expect(await list(stranger)).toEqual([]);
    // Nor over tRPC or GraphQL.
    const viaTrpc = await trpcClient(app.url, stranger.jwt)
      .brand.deleteMedia.mutate({ id: item.id })
      .catch((error: { data?: { code?: string } }) => error.data?.code);
    expect(viaTrpc).toBe("NOT_FOUND");
    const viaGql = await graphql(app.url, "mutation($id: String!) { brandDeleteMedia(id: $id) { id } }", { id: item.id }, stranger.jwt);
    expect(viaGql.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

    // Still there for its owner.
    expect((await getFile(owner, item.url)).body.equals(bytes)).toBe(true);
    expect(storedFiles(owner)).toEqual([`${item.id}.webp`]);
  });

  it("lists over tRPC and GraphQL too, and a delete removes the file", async () => {
    const [item] = await list(owner);
    expect((await trpcClient(app.url, owner.jwt).brand.media.query()).map((m) => m.id)).toEqual([item.id]);
    const gql = await graphql(
      app.url,
      "{ brandMedia { id width height mime url role kind durationSec posterUrl consent { name } } }",
      {},
      owner.jwt,
    );
    expect(gql.body.data).toEqual({
      brandMedia: [
        {
          id: item.id,
          width: 400,
          height: 400,
          mime: "image/webp",
          url: item.url,
          role: "product",
          kind: "image",
          durationSec: null,
          posterUrl: null,
          consent: null,
        },
      ],
    });

    const deleted = await graphql(
      app.url,
      "mutation($id: String!) { brandDeleteMedia(id: $id) { id deleted } }",
      { id: item.id },
      owner.jwt,
    );
    expect(deleted.body.data).toEqual({ brandDeleteMedia: { id: item.id, deleted: true } });
    expect(storedFiles(owner)).toEqual([]);
    expect((await getFile(owner, item.url)).status).toBe(404);
    expect(await list(owner)).toEqual([]);
    expect((await owner.client.call("DELETE", `/user/brand/media/${item.id}`)).status).toBe(404);
  });
});

// Words and layout, round two: every page a new user and an admin visit, at 390 px and at
// 1400 px, with no sideways scroll; the places that broke named one by one (the job page with three
// formats, the landing pricing table's Premium column, the admin users' e-mails, the admin navigation in
// one row), and the words that read wrong (titles, the quality text, the studio's names beside the API's,
// "Queued" like the jobs, the dashboard's plan line, invoice lines without pack ids).
import { expect, type Page, test } from "@playwright/test";
import { expectNoSidewaysScroll, signInAsAdmin, signUpInBrowser } from "./support/browser.ts";

/** Each element's top edge, rounded: one distinct value means one row. */
const rowsOf = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top))).size);

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the user's pages fit, and their words say what they mean", async ({ page }) => {
      test.setTimeout(150_000);
      await page.goto("/");
      // The hero shows what the service made, one per format: the two video ads play (muted, looping, inline,
      // the still as their poster), the two static ads are stills; each loaded from the SPA's own files.
      const hero = page.getByTestId("hero-stills");
      const stills = hero.locator("img");
      await expect(stills).toHaveCount(2);
      await expect
        .poll(() => stills.evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length))
        .toBe(2);
      const clips = hero.getByTestId("hero-clip");
      await expect(clips).toHaveCount(2);
      await expect
        .poll(() =>
          clips.evaluateAll((videos) =>
            (videos as HTMLVideoElement[]).map((v) => ({
              muted: v.muted,
              loop: v.loop,
              inline: v.playsInline,
              poster: new URL(v.poster).pathname.replace(/\.jpg$/, ""),
              src: new URL(v.currentSrc || v.src).pathname.replace(/\.mp4$/, ""),
              playing: v.readyState >= 2 && !v.paused && v.videoWidth > 0,
            })),
          ),
        )
        .toEqual([
          { muted: true, loop: true, inline: true, poster: "/hero/wide-16x9", src: "/hero/wide-16x9", playing: true },
          { muted: true, loop: true, inline: true, poster: "/hero/tall-9x16", src: "/hero/tall-9x16", playing: true },
        ]);
      await expectNoSidewaysScroll(page);
      // The pricing table shows Premium without scrolling sideways inside it.
      const table = page.getByTestId("pricing-table");
      await table.scrollIntoViewIfNeeded();
      const fits = await table.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const scroller = el.parentElement!;
        return box.right <= window.innerWidth && scroller.scrollWidth <= scroller.clientWidth + 1;
      });
      expect(fits, "the pricing table fits its box").toBe(true);

      await signUpInBrowser(page, `e2e-layout-${width}`);
      await expect(page.getByTestId("dashboard-change-plan")).toHaveText("Change your plan on Billing");
      await expect(page.getByText("Plan changes arrive with Billing")).toHaveCount(0);
      await expect(page.getByText("Who makes the videos")).toBeVisible();
      await expectNoSidewaysScroll(page);

      await page.goto("/studio?type=staticad");
      const form = page.getByTestId("workflow-form");
      await expect(page.getByRole("heading", { name: "Describe your Static Ad" })).toBeVisible();
      await expect(page.getByText("Static Ad ad")).toHaveCount(0);
      await expect(page.getByTestId("type-api-cinematic")).toHaveText("API type cinematic");
      await page.getByTestId("workflow-type-factory").click();
      await form.getByTestId("field-quality-premium").check();
      await expect(form.getByTestId("quality-description")).toContainText("three hook variants per format instead of two");
      await page.getByTestId("workflow-type-cinematic").click();
      await expect(form.getByTestId("quality-description")).not.toContainText("factory");
      await expect(form.getByTestId("quality-description")).not.toContainText("128 kbps");
      await page.getByTestId("workflow-type-ad-optimizer").click();
      await expect(page.getByRole("heading", { name: "Choose the ad to improve" })).toBeVisible();
      await page.getByTestId("workflow-type-local-audit").click();
      await expect(page.getByRole("heading", { name: "Describe the business to audit" })).toBeVisible();
      await expectNoSidewaysScroll(page);

      // A job with three formats fits the phone while it runs and once it is done.
      const launched = await page.request.post("/api/workflow", {
        data: { type: "cinematic", concept: "Trail shoes that grip wet rock", formats: ["16:9", "9:16", "1:1"] },
      });
      const jobId = (await launched.json()).data.jobId as string;
      await page.goto(`/studio/jobs/${jobId}`);
      await expect(page.getByTestId("job-status")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expect
        .poll(async () => (await (await page.request.get(`/api/workflow/job?jobId=${jobId}`)).json()).data.status, { timeout: 90_000 })
        .toBe("completed");
      await page.reload();
      await expect(page.getByTestId("job-status")).toBeVisible();
      await expect(page.locator("video").first()).toBeVisible();
      await expectNoSidewaysScroll(page);

      await page.goto("/projects");
      // Each thumbnail is the first frame with the type and the headline over it.
      const card = page.locator(`[data-testid="project-card"][data-project-id="${jobId}"]`);
      await expect(card.getByTestId("project-thumb-type")).toHaveText("Director");
      await expect(card.getByTestId("project-thumb-headline")).toHaveText("Trail shoes that grip wet rock");
      await expect.poll(() => card.locator(".project-thumb img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await expect(
        page
          .getByRole("radio", { name: "Queued" })
          .or(page.getByRole("button", { name: "Queued" }))
          .or(page.getByRole("link", { name: "Queued" }))
          .first(),
      ).toBeVisible();
      await expect(page.getByText("Pending", { exact: true })).toHaveCount(0);
      await expectNoSidewaysScroll(page);

      for (const path of ["/billing", "/settings", "/brand", "/performance", "/assistant", "/prompt-builder"]) {
        await page.goto(path);
        await expect(page.locator("h1")).toBeVisible();
        await expectNoSidewaysScroll(page);
      }
    });

    test("with reduced motion asked for, the hero shows stills only and fetches no clip", async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      const fetched: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith(".mp4")) fetched.push(request.url());
      });
      await page.goto("/");
      const hero = page.getByTestId("hero-stills");
      await expect(hero.locator("img")).toHaveCount(4);
      await expect(hero.getByTestId("hero-clip")).toHaveCount(0);
      await expect
        .poll(() => hero.locator("img").evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length))
        .toBe(4);
      expect(fetched).toEqual([]);
      await expectNoSidewaysScroll(page);
    });

    test("the admin's pages fit: e-mails whole, the navigation in one row", async ({ page }) => {
      await signUpInBrowser(page, `e2e-admin-layout-${width}`);
      await page.context().clearCookies();
      await signInAsAdmin(page);
      await page.goto("/admin");
      const users = page.getByTestId("admin-users");
      await expect(users).toBeVisible();
      await expect(users.getByTestId("admin-user-link").first()).toBeVisible();
      // The longest usual e-mail on the page: its link's line boxes are its lines (a 43-character address
      // may take two on a phone, never the five it took in a squeezed column). Unusually long addresses
      // (long-emails.spec.ts) take two lines at any width.
      const lines = await users
        .getByTestId("admin-user-link")
        .evaluateAll((links) =>
          Math.max(
            ...links
              .filter((a) => (a.textContent ?? "").length <= 60)
              .map((a) => new Set(Array.from(a.getClientRects()).map((r) => Math.round(r.top))).size),
          ),
        );
      expect(lines, "lines of the longest e-mail").toBeLessThanOrEqual(width >= 1400 ? 1 : 2);
      await expectNoSidewaysScroll(page);
      if (width >= 1400) {
        expect(await rowsOf(page, '[data-testid="admin-nav"] a'), "admin tabs in one row").toBe(1);
        expect(await rowsOf(page, ".app-nav-list > li"), "the main navigation in one row").toBe(1);
      }
      for (const path of ["/admin/overview", "/admin/leads", "/admin/moderation", "/admin/system", "/admin/activity", "/admin/flags"]) {
        await page.goto(path);
        await expect(page.getByTestId("admin-nav")).toBeVisible();
        await expectNoSidewaysScroll(page);
      }
    });
  });
}

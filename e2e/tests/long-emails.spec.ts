// Very long e-mail addresses (as long as a valid one may be): a 64-character local part at a 90-character domain no longer
// breaks letter by letter over many lines on a 390 px phone, nor widens a page or a table. Wherever an
// address shows (the dashboard, settings, the admin users table, the admin's account page) it takes at
// most two lines (local part, then "@domain"), each cut with an ellipsis when it is still too long, and the
// whole address stays available: in its tooltip and as its text, which is what a copy takes.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectNoSidewaysScroll, PASSWORD, signInAsAdmin } from "./support/browser.ts";

const DOMAIN = "an-unusually-long-subdomain-for-testing.customer-accounts.very-long-company-name-here.example";

/** How an address shows: its lines (distinct tops of its parts), whether a part is cut, and its text and tooltip. */
async function shape(email: Locator) {
  return email.evaluate((el) => {
    const parts = Array.from(el.querySelectorAll(".email-part")) as HTMLElement[];
    return {
      lines: new Set(parts.map((p) => Math.round(p.getBoundingClientRect().top))).size,
      cut: parts.some((p) => p.scrollWidth > p.clientWidth + 1),
      right: Math.max(...parts.map((p) => p.getBoundingClientRect().right)),
      wide: (() => {
        const out: string[] = [];
        for (let a: HTMLElement | null = el as HTMLElement; a; a = a.parentElement) {
          const r = a.getBoundingClientRect();
          out.push(`${a.tagName}.${a.className} ${Math.round(r.width)} ${getComputedStyle(a).display}`);
        }
        return out.join(" < ");
      })(),
      text: el.textContent,
      title: el.getAttribute("title"),
    };
  });
}

async function expectTidy(page: Page, email: Locator, address: string, width: number) {
  await expect(email).toBeVisible();
  const got = await shape(email);
  expect(got.lines, `lines of ${address}`).toBeLessThanOrEqual(2);
  expect(got.right, `the address stays inside the viewport: ${got.wide}`).toBeLessThanOrEqual(width);
  expect(got.text, "the whole address is the text a copy takes").toBe(address);
  expect(got.title, "the whole address is in the tooltip").toBe(address);
  await expectNoSidewaysScroll(page);
  return got;
}

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a very long e-mail address takes at most two lines, cut with an ellipsis, whole in its tooltip", async ({ page }) => {
      test.setTimeout(120_000);
      const stamp = `${width}-${Date.now()}`;
      const address = `long-${stamp}-${"x".repeat(64 - 5 - stamp.length - 1)}@${DOMAIN}`;
      expect(address.split("@")[0]!.length).toBe(64);
      await page.goto("/signup");
      await page.getByTestId("email").fill(address);
      await page.getByTestId("password").fill(PASSWORD);
      await page.getByTestId("submit").click();
      await expect(page).toHaveURL(/\/dashboard$/);

      const onDashboard = await expectTidy(page, page.getByTestId("profile-email"), address, width);
      // On a phone the address cannot fit whole on its lines: it is cut, not broken over more lines.
      if (width === 390) expect(onDashboard.cut, "cut with an ellipsis on a phone").toBe(true);
      await page.goto("/settings");
      await expectTidy(page, page.locator(".settings-email .email"), address, width);

      await page.context().clearCookies();
      await signInAsAdmin(page);
      await page.goto(`/admin?q=${encodeURIComponent(`long-${stamp}`)}`);
      const link = page.getByTestId("admin-user-link");
      await expect(link).toHaveCount(1);
      const inTable = await expectTidy(page, link.locator(".email"), address, width);
      if (width === 390) expect(inTable.cut).toBe(true);
      // The table itself does not scroll sideways inside its box.
      const table = page.getByTestId("admin-users");
      expect(await table.evaluate((el) => el.parentElement!.scrollWidth <= el.parentElement!.clientWidth + 1)).toBe(true);

      await link.click();
      await expect(page).toHaveURL(/\/admin\/users\//);
      await expectTidy(page, page.getByTestId("admin-user-email").locator(".email"), address, width);
    });
  });
}

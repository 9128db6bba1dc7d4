// The landing page's contact and newsletter forms answer in place, so a visitor knows the message arrived.
import { expect, test } from "@playwright/test";

test("the contact form explains what to fix, then confirms the message", async ({ page }) => {
  await page.goto("/#contact");
  const form = page.getByTestId("contact-form");
  await form.getByTestId("contact-submit").click();
  await expect(form.getByTestId("field-error-contact-email")).toContainText("Enter the e-mail address we should answer");
  await expect(form.getByTestId("field-error-contact-message")).toContainText("Write a message");

  await form.getByTestId("contact-name").fill("Robin");
  await form.getByTestId("contact-email").fill("robin@example.com");
  await form.getByTestId("contact-message").fill("Do you offer agency seats?");
  await form.getByTestId("contact-submit").click();
  await expect(form.getByTestId("contact-sent")).toContainText("your message is with the team");
  await expect(form.getByTestId("contact-message")).toHaveValue("");
});

test("the newsletter form subscribes once, and says so the second time", async ({ page }) => {
  await page.goto("/");
  const form = page.getByTestId("newsletter-form");
  await form.getByTestId("newsletter-email").fill("nope");
  await form.getByTestId("newsletter-submit").click();
  await expect(form.getByTestId("newsletter-error")).toHaveText("Enter a valid e-mail address, like name@example.com.");

  const email = `e2e-news-${Date.now()}@example.com`;
  await form.getByTestId("newsletter-email").fill(email);
  await form.getByTestId("newsletter-submit").click();
  await expect(form.getByTestId("newsletter-done")).toHaveText(`Subscribed. Watch ${email} for the next issue.`);

  await form.getByTestId("newsletter-email").fill(email);
  await form.getByTestId("newsletter-submit").click();
  await expect(form.getByTestId("newsletter-done")).toHaveText(`${email} is already subscribed.`);
});

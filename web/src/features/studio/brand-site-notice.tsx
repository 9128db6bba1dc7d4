// Says, before launch, when the page's site is not the chosen brand's website: the ad would put that
// brand's name, pictures and logo over another advertiser's page. The user picks "No brand profile" or
// another page; nothing is blocked, since a brand may sell on a marketplace's page.
import type { Brand } from "./form-state.ts";

const siteOf = (address: string | undefined): string | null => {
  if (!address?.trim()) return null;
  try {
    const host = new URL(/^https?:\/\//i.test(address.trim()) ? address.trim() : `https://${address.trim()}`).hostname;
    return host.replace(/^www\./i, "").toLowerCase();
  } catch {
    return null;
  }
};

/** Whether two hosts are one site (equal, or one a subdomain of the other: shop.acme.com and acme.com). */
const sameSite = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

export function BrandSiteNotice({ brand, chosen, url }: { brand: Brand | null; chosen: string; url: string }) {
  if (!brand || chosen !== brand.id) return null;
  const page = siteOf(url);
  const website = siteOf(brand.websiteUrl);
  if (!page || !website || sameSite(page, website)) return null;
  const name = brand.brandName || brand.name || "your brand profile";
  return (
    <p className="alert alert-warning" role="status" data-testid="brand-site-mismatch">
      The page is on {page}, but {name}'s website is {website}: the ad will show {name}'s name, pictures and logo. If the page is another
      advertiser's, choose "No brand profile".
    </p>
  );
}

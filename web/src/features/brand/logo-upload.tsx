// The logo as a file: PNG, WebP or SVG (the server draws an SVG to PNG and refuses one that would load
// anything else). It is saved at once as this brand's logo; the address field above shows where it lives.
import { BRAND_LOGO_EXTENSIONS, BRAND_LOGO_LIMITS, type BrandLogo } from "@adgen/schema";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { uploadFile } from "../../lib/upload-file.ts";
import { useTRPC } from "../../trpc.ts";
import { FormAlert, FormSuccess } from "../../ui/form.tsx";
import { Spinner } from "../../ui/status.tsx";

const ACCEPT = [...BRAND_LOGO_EXTENSIONS, "image/png", "image/webp", "image/svg+xml"].join(",");
const MAX_MB = BRAND_LOGO_LIMITS.maxBytes / (1024 * 1024);

export function LogoUpload({ brandId, onUploaded }: { brandId: string | null; onUploaded: (logoUrl: string) => void }) {
  const uid = useId();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: BrandLogo | null }>({
    busy: false,
    error: null,
    done: null,
  });

  async function send(file: File) {
    if (file.size > BRAND_LOGO_LIMITS.maxBytes) {
      setState({ busy: false, error: `That file is larger than ${MAX_MB} MB: send a smaller logo.`, done: null });
      return;
    }
    setState({ busy: true, error: null, done: null });
    try {
      const done = await uploadFile<BrandLogo>(
        "/api/user/brand/logo",
        file,
        () => {},
        `That file is larger than ${MAX_MB} MB.`,
        brandId ? { brandId } : {},
      );
      setState({ busy: false, error: null, done });
      onUploaded(done.logoUrl);
      await queryClient.invalidateQueries({ queryKey: trpc.brand.list.queryKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.brand.get.queryKey() });
    } catch (error) {
      setState({ busy: false, error: (error as Error).message, done: null });
    }
  }

  if (!brandId) return <p className="field-hint">Create the brand first; then you can upload its logo as a file.</p>;
  return (
    <div className="field brand-logo-upload">
      <label htmlFor={`${uid}-logo-file`} className="field-label">
        Or upload the logo <span className="muted field-optional">PNG, WebP or SVG, up to {MAX_MB} MB</span>
      </label>
      <input
        id={`${uid}-logo-file`}
        type="file"
        className="input"
        accept={ACCEPT}
        disabled={state.busy}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) void send(file);
        }}
        data-testid="brand-logo-file"
      />
      {state.busy ? (
        <p className="field-hint" role="status">
          <Spinner size="sm" /> Uploading the logo…
        </p>
      ) : null}
      {state.error ? <FormAlert testId="brand-logo-error">{state.error}</FormAlert> : null}
      {state.done ? (
        <FormSuccess testId="brand-logo-uploaded">
          Logo saved{state.done.uploaded === "svg" ? " (drawn from your SVG as a PNG)" : ""}: your next ads end with it.
        </FormSuccess>
      ) : null}
    </div>
  );
}

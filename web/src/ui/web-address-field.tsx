// A Field for a web address: typed as a URL (the right keyboard on phones), its error kept as `string | null`.
import type { ComponentProps } from "react";
import { Field } from "./form.tsx";

type WebAddressFieldProps = Omit<ComponentProps<typeof Field>, "type" | "inputMode" | "error"> & {
  error: string | null;
};

export function WebAddressField({ error, ...field }: WebAddressFieldProps) {
  return <Field type="url" inputMode="url" error={error ?? undefined} {...field} />;
}

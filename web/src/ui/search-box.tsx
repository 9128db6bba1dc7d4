// The search field of a list's toolbar: labelled for screen readers, optionally with a magnifier.
import type { InputHTMLAttributes } from "react";

interface SearchBoxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "onChange" | "type" | "className"> {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  icon?: boolean;
  testId?: string;
}

export function SearchBox({ id, label, onChange, icon = false, testId, ...input }: SearchBoxProps) {
  return (
    <div className="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {icon ? (
        <svg className="search-icon" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
          <path
            d="M8.5 3a5.5 5.5 0 1 0 3.4 9.8l3.6 3.7 1.1-1.1-3.7-3.6A5.5 5.5 0 0 0 8.5 3Zm0 1.5a4 4 0 1 1 0 8 4 4 0 0 1 0-8Z"
            fill="currentColor"
          />
        </svg>
      ) : null}
      <input
        id={id}
        className="input search-input"
        type="search"
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
        {...input}
      />
    </div>
  );
}

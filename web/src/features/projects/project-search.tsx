// The search box of the projects page: the text goes to the server (`q`: name or concept contains it,
// any case) a moment after typing stops, and lives in the URL so a reload keeps it.
import { useEffect, useId, useState } from "react";

export function ProjectSearch({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const uid = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return undefined;
    const timer = window.setTimeout(() => onChange(draft), 250);
    return () => window.clearTimeout(timer);
  }, [draft, value, onChange]);

  return (
    <search className="project-search">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onChange(draft);
        }}
      >
        <label htmlFor={`${uid}-q`} className="visually-hidden">
          Search projects
        </label>
        <input
          id={`${uid}-q`}
          type="search"
          className="input"
          placeholder="Search by name or concept"
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          data-testid="project-search"
        />
      </form>
    </search>
  );
}

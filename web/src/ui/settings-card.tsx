// A card with a title and a line or two about it, then its content: one block of a settings or account page.
import { type ReactNode, useId } from "react";

interface SettingsCardProps {
  title: ReactNode;
  /** What the card is for, under its title. */
  intro: ReactNode;
  testId?: string;
  /** An anchor to link to the card (`/brand#knowledge`). */
  id?: string;
  children: ReactNode;
}

export function SettingsCard({ title, intro, testId, id, children }: SettingsCardProps) {
  const uid = useId();
  return (
    <section className="card settings-card" aria-labelledby={`${uid}-title`} id={id} data-testid={testId}>
      <div className="settings-card-intro">
        <h2 id={`${uid}-title`} className="card-title">
          {title}
        </h2>
        <p className="muted">{intro}</p>
      </div>
      {children}
    </section>
  );
}

// A row of headline figures on an admin card: each a label over its value.
interface Figure {
  label: string;
  value: string;
  testId?: string;
}

export function AdminFigures({ figures }: { figures: Figure[] }) {
  return (
    <dl className="admin-figures">
      {figures.map((figure) => (
        <div key={figure.label} className="admin-figure">
          <dt>{figure.label}</dt>
          <dd data-testid={figure.testId}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

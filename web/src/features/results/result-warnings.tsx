// What did not go as asked (a page that could not be read, a model option that was not used…), said
// above the ad so nobody posts it without knowing.
export function ResultWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="alert alert-warning" role="status" data-testid="job-warnings">
      <div>
        <p className="alert-title">Finished with {warnings.length === 1 ? "a warning" : "warnings"}</p>
        <ul className="warning-list">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

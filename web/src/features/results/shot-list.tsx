// A cinematic ad's shot list: per scene, camera, lens, lighting and motion, and the prompt a video
// model gets for it.
import type { Shot } from "@adgen/schema";

export function ShotList({ shots }: { shots: readonly Shot[] }) {
  return (
    <section className="result-section" aria-labelledby="shot-list-title" data-testid="shot-list">
      <h3 id="shot-list-title" className="result-section-title">
        Shot list
      </h3>
      <ol className="shot-list">
        {shots.map((shot, i) => (
          <li key={shot.sceneId} className="shot" data-testid="shot">
            <p className="shot-number">Shot {i + 1}</p>
            <dl className="shot-specs">
              <div>
                <dt>Camera</dt>
                <dd>{shot.camera}</dd>
              </div>
              <div>
                <dt>Lens</dt>
                <dd>{shot.lens}</dd>
              </div>
              <div>
                <dt>Lighting</dt>
                <dd>{shot.lighting}</dd>
              </div>
              <div>
                <dt>Motion</dt>
                <dd>{shot.motion}</dd>
              </div>
            </dl>
            {shot.prompt ? (
              <details className="shot-prompt">
                <summary>Prompt</summary>
                <p>{shot.prompt}</p>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

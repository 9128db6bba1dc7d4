// What the app shell hands every signed-in page: the session it was opened with.
import type { Session } from "./auth/session.tsx";

export interface PageProps {
  session: Session;
}

// Project page "Fair play": identities excluded from every campaign, and the project's whole audit trail.
import { AuditPanel } from "./AuditPanel";
import { ExclusionsPanel } from "./ExclusionsPanel";

/** Project-wide exclusions (sanctions or sybil lists) and the audit trail of every operator action. */
export function ProjectFairPlayPage() {
  return (
    <div className="page">
      <div className="page-head">
        <h1>Fair play</h1>
      </div>
      <ExclusionsPanel base="/api" scope="project" />
      <AuditPanel path="/api/audit" title="Audit trail" />
    </div>
  );
}

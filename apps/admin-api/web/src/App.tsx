// The dashboard's shell: sign-in, the sidebar of campaigns and the page the URL hash names.
import { useEffect, useState } from "react";
import { api, sessionToken, setSessionToken } from "./api";
import { CampaignPage } from "./pages/CampaignPage";
import { CampaignsPage } from "./pages/CampaignsPage";
import { ProjectFairPlayPage } from "./pages/ProjectFairPlayPage";
import { SignInPage } from "./pages/SignInPage";
import { TeamPage } from "./pages/TeamPage";
import { go, useRoute } from "./router";
import type { Answer, Me } from "./types";
import { Notice, useLoad } from "./ui";

/** The dashboard: sign-in, then a sidebar with the project's campaigns and the page of the route. */
export function App() {
  const route = useRoute();
  const [signedIn, setSignedIn] = useState(Boolean(sessionToken()));

  useEffect(() => {
    if (!signedIn && route[0] !== "login") go("/login");
  }, [signedIn, route]);

  if (!signedIn || route[0] === "login") {
    return (
      <SignInPage
        onSignedIn={() => {
          setSignedIn(true);
          go("/campaigns");
        }}
      />
    );
  }
  return <Shell route={route} onSignOut={() => setSignedIn(false)} />;
}

function Shell(props: { route: string[]; onSignOut: () => void }) {
  const me = useLoad(() => api<Me>("GET", "/api/me"), []);
  const campaigns = useLoad(() => api<Answer<"/api/campaigns", "get">>("GET", "/api/campaigns"), []);
  const [section, id, tab] = props.route;
  const list = campaigns.data?.campaigns ?? [];

  const signOut = async () => {
    // The server ends the session first, so the token stops working even if someone copied it;
    // the tab forgets it whatever the answer (an already-ended session answers 401).
    await api("POST", "/api/auth/logout").catch(() => undefined);
    setSessionToken(null);
    props.onSignOut();
    go("/login");
  };

  let page = <CampaignsPage campaigns={list} loaded={campaigns.data !== null} onChanged={campaigns.reload} />;
  if (section === "campaigns" && id && me.data) {
    page = <CampaignPage key={id} campaignId={id} tab={tab ?? "overview"} me={me.data} onChanged={campaigns.reload} />;
  } else if (section === "team") {
    page = <TeamPage />;
  } else if (section === "fairplay") {
    page = <ProjectFairPlayPage />;
  }

  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="sidebar-inner">
          <a className="brand" href="#/campaigns">
            <span className="brand-mark">◆</span> Pointwise
          </a>
          <div className="sidebar-project">{me.data?.project.name ?? " "}</div>
          <nav>
            <a className={section === "campaigns" && !id ? "active" : ""} href="#/campaigns">
              All campaigns
            </a>
            {list
              .filter((c) => !c.archived_at)
              .map((c) => (
                <a key={c.id} className={`sub ${id === c.id ? "active" : ""}`} href={`#/campaigns/${c.id}/overview`}>
                  {c.name}
                </a>
              ))}
            <a className={section === "fairplay" ? "active" : ""} href="#/fairplay">
              Fair play
            </a>
            <a className={section === "team" ? "active" : ""} href="#/team">
              Team
            </a>
          </nav>
          <div className="sidebar-foot">
            <div className="muted small">{me.data?.operator.email}</div>
            <button type="button" className="btn btn-small btn-ghost" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </aside>
      <main className="content">
        {(me.error ?? campaigns.error) && <Notice kind="error">{me.error ?? campaigns.error}</Notice>}
        {page}
      </main>
    </div>
  );
}

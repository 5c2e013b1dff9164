// Hash routing: the route as path segments, its query parameters, and navigation.
import { useEffect, useState } from "react";

function readRoute(): string[] {
  return window.location.hash.replace(/^#\/?/, "").split("?")[0]?.split("/").filter(Boolean).map(decodeURIComponent) ?? [];
}

/** Where the dashboard is, from the URL hash: `#/campaigns/abcd-1234/keys` -> ["campaigns", "abcd-1234", "keys"]. */
export function useRoute(): string[] {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const on = () => setRoute(readRoute());
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return route;
}

/** Query parameters after the hash path: `#/campaigns/x/users?user=...`. */
export function hashQuery(): URLSearchParams {
  return new URLSearchParams(window.location.hash.split("?")[1] ?? "");
}

/** Goes to a dashboard page. */
export function go(path: string): void {
  window.location.hash = `#${path}`;
}

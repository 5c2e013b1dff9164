// Stream and subject names of one namespace: every subject the services share is spelled here.

/** Stream and subject names of one namespace (one deployment or one test run). */
export interface BusNames {
  eventsStream: string;
  eventsSubjects: string;
  /** Subject a raw event of a campaign is published on. */
  eventSubject(campaignId: string): string;
  /** Subject of a campaign's "scores changed" messages (core NATS, not stored). */
  scoresSubject(campaignId: string): string;
  /** Wildcard over every campaign's "scores changed" subject. */
  scoresSubjects: string;
}

/** Names for a namespace: stream `<NS>_EVENTS`, subjects `<ns>.events.<campaign_id>` and `<ns>.scores.<campaign_id>`. */
export function busNames(namespace: string): BusNames {
  return {
    eventsStream: `${namespace.toUpperCase()}_EVENTS`,
    eventsSubjects: `${namespace}.events.>`,
    eventSubject: (campaignId) => `${namespace}.events.${campaignId}`,
    scoresSubject: (campaignId) => `${namespace}.scores.${campaignId}`,
    scoresSubjects: `${namespace}.scores.*`,
  };
}

/** Stream and subject names of one namespace (one deployment or one test run). */
export interface BusNames {
  eventsStream: string;
  eventsSubjects: string;
  /** Subject a raw event of a campaign is published on. */
  eventSubject(campaignId: string): string;
}

/** Names for a namespace: stream `<NS>_EVENTS`, subjects `<ns>.events.<campaign_id>`. */
export function busNames(namespace: string): BusNames {
  return {
    eventsStream: `${namespace.toUpperCase()}_EVENTS`,
    eventsSubjects: `${namespace}.events.>`,
    eventSubject: (campaignId) => `${namespace}.events.${campaignId}`,
  };
}

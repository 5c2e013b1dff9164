/** NATS JetStream for the services: stream and subject names, publishing, the one consumer, and "scores changed". */
export { type AnnounceLogger, type Bus, type BusOptions, createBus, DUPLICATE_WINDOW_MS, type EventsStreamState, type StoredMessage } from "./bus";
export {
  type ConsumeOptions,
  decodeRawEvent,
  type EventDeliveries,
  type EventDelivery,
  type EventsConsumerSettings,
  type EventsConsumerState,
} from "./consumer";
export { type BusNames, busNames } from "./names";
export type { EventPublisher, PubAck } from "./publisher";
export type { ScoresChangedHandler, ScoresSubscribeOptions, ScoresSubscription } from "./scores";

import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { liveEventTopicSchema, type LiveEventTopic } from '@strongroom/contracts/notifications.ts';
import { apiBasePath } from './api-client.ts';
import { staleQueriesByLiveEvent } from './query-keys.ts';

/** The server-sent event stream of the signed-in customer (same origin, so the session cookie goes with it). */
export const liveEventsUrl = `${apiBasePath}/events`;

/** The name the server gives every event; its `data` is the topic that changed. */
const changeEventName = 'change';

/**
 * Keeps the signed-in screens current: the server says which topic changed and the queries that
 * show it are fetched again. Mounted once, in the bank layout. EventSource reconnects by itself;
 * after a broken connection every topic is refetched, since changes may have been missed meanwhile.
 * Without EventSource (tests, very old browsers) the screens still refetch when the window regains focus.
 */
export function useLiveEvents(): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(liveEventsUrl);
    let connectionWasLost = false;

    const refetch = (topic: LiveEventTopic) => {
      for (const queryKey of staleQueriesByLiveEvent[topic]) void queryClient.invalidateQueries({ queryKey });
    };

    const onChange = (event: MessageEvent<unknown>) => {
      const topic = liveEventTopicSchema.safeParse(event.data);
      // An unknown topic comes from a newer server; this page has nothing that shows it.
      if (topic.success) refetch(topic.data);
    };
    const onError = () => {
      connectionWasLost = true;
    };
    const onOpen = () => {
      if (!connectionWasLost) return;
      connectionWasLost = false;
      for (const topic of liveEventTopicSchema.options) refetch(topic);
    };

    source.addEventListener(changeEventName, onChange);
    source.addEventListener('error', onError);
    source.addEventListener('open', onOpen);
    return () => {
      source.removeEventListener(changeEventName, onChange);
      source.removeEventListener('error', onError);
      source.removeEventListener('open', onOpen);
      source.close();
    };
  }, [queryClient]);
}

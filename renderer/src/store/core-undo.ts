import type { TidingsApi, UndoTicket } from '../../../src/app/api';
import { reportError } from './report-error';
import type { AppState } from './types';

/**
 * Offers the Undo toast (and `z`) for a change the core can take back (unsubscribe, delete a
 * folder, a new mute filter: issue 17). The core puts everything back; the renderer re-reads it.
 */
export function offerCoreUndo(get: () => AppState, api: TidingsApi, ticket: UndoTicket | null): void {
  if (!ticket) return;
  get().offerUndo({
    message: ticket.message,
    run: async () => {
      try {
        const result = await api.undo(ticket.undoId);
        if (!result.ok) {
          get().pushNotice({ level: 'error', message: result.error.message });
          return;
        }
      } catch (err) {
        reportError(get, err, 'Could not undo');
        return;
      }
      await Promise.all([get().loadFeeds(), get().loadFolders(), get().loadFilters()]);
      void get().loadRiver();
    },
  });
}

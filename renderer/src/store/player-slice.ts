/**
 * The player's state, mirrored from the core (issue 35): the episode in the player comes back after
 * a reload (nowPlaying), where each one was left and whether it was played are the core's
 * (savePlayback, setPlayed); keys reach the player through `playerIntent` (features do not import
 * each other: the keyboard asks, the player bar acts).
 */
import type { NowPlaying, TidingsApi } from '../../../src/app/api';
import { reportError } from './report-error';
import { updateWhere } from './river-merge';
import type { SliceCreator } from './types';

/** An episode in the player bar (features/player): enough to show it and resume it. */
export interface Episode {
  url: string;
  type: string | null;
  title: string;
  feedTitle: string;
  itemId: number;
  image: string | null;
  /** Where to start (seconds); the core's place for it when known. */
  startAt?: number;
  /** Wait for play to be pressed (the episode the player came back with after a reload). */
  paused?: boolean;
}

export type PlayerAction = 'toggle' | 'back' | 'forward' | 'slower' | 'faster';

export interface PlayerSlice {
  nowPlaying: Episode | null;
  /** Puts an episode in the player (null closes it); the core remembers it across reloads. */
  play(episode: Episode | null): void;
  /** After a reload: the episode the player held, paused where it was left. */
  restorePlayer(): Promise<void>;
  /** The last key for the player (play/pause, skip, speed); `seq` tells two alike apart. */
  playerIntent: { action: PlayerAction; seq: number } | null;
  sendPlayer(action: PlayerAction): void;
  /** Where an episode is: kept by the core; `played` changes show in the river at once. */
  savePlace(
    itemId: number,
    url: string,
    positionSec: number,
    durationSec: number | null,
    played?: boolean,
  ): void;
  /** Played / unplayed by hand. */
  setPlayed(itemId: number, played: boolean): Promise<void>;
}

export const createPlayerSlice =
  (api: TidingsApi): SliceCreator<PlayerSlice> =>
  (set, get) => {
    /** Shows a played/unplayed change on the item wherever it is loaded. */
    function showPlayed(itemId: number, url: string, played: boolean, positionSec?: number): void {
      set((state) => ({
        groups: updateWhere(
          state.groups,
          (item) => item.id === itemId,
          (item) => ({
            ...item,
            playback: {
              url: item.playback?.url ?? url,
              positionSec: positionSec ?? (played ? 0 : (item.playback?.positionSec ?? 0)),
              durationSec: item.playback?.durationSec ?? null,
              played,
            },
          }),
        ),
      }));
    }

    return {
      nowPlaying: null,
      playerIntent: null,

      play(nowPlaying) {
        set({ nowPlaying });
        const call = nowPlaying ? { itemId: nowPlaying.itemId, url: nowPlaying.url } : null;
        api
          .setNowPlaying(call)
          .catch((err: unknown) => reportError(get, err, 'Could not remember the player'));
      },

      async restorePlayer() {
        let held: NowPlaying | null;
        try {
          held = await api.nowPlaying();
        } catch {
          return; // The player simply stays closed.
        }
        if (!held || get().nowPlaying) return;
        set({
          nowPlaying: {
            url: held.url,
            type: held.type,
            title: held.title,
            feedTitle: held.feedTitle,
            itemId: held.itemId,
            image: held.image,
            startAt: held.positionSec,
            paused: true,
          },
        });
      },

      sendPlayer(action) {
        set((state) => ({ playerIntent: { action, seq: (state.playerIntent?.seq ?? 0) + 1 } }));
      },

      savePlace(itemId, url, positionSec, durationSec, played) {
        if (played !== undefined) showPlayed(itemId, url, played, played ? 0 : positionSec);
        api
          .savePlayback({
            itemId,
            url,
            positionSec,
            durationSec,
            ...(played === undefined ? {} : { played }),
          })
          .catch(() => {
            // A place not saved is the next save's to keep: the player saves every few seconds.
          });
      },

      async setPlayed(itemId, played) {
        const url = get().nowPlaying?.itemId === itemId ? get().nowPlaying!.url : '';
        showPlayed(itemId, url, played);
        try {
          await api.setPlayed(itemId, played);
        } catch (err) {
          showPlayed(itemId, url, !played);
          reportError(get, err, 'Could not mark the episode');
        }
      },
    };
  };

/**
 * The writer's side of the API (issue 7): posts, drafts, publish settings. Placeholder until the
 * publish room lands: every command answers, nothing is published yet.
 */
import { countGraphemes } from '../publish/graphemes.ts';
import type { PublishSettings, TidingsApi } from './api.ts';
import type { AppContext } from './context.ts';

export type PublishApi = Pick<
  TidingsApi,
  | 'post'
  | 'editPost'
  | 'deletePost'
  | 'listPosts'
  | 'saveDraft'
  | 'getDraft'
  | 'getPublishSettings'
  | 'updatePublishSettings'
  | 'publishInfo'
  | 'countChars'
>;

const DEFAULTS: PublishSettings = {
  title: 'My posts',
  description: 'Short posts written with Tidings',
  link: null,
  language: 'en',
  charLimit: 140,
  feedSize: 25,
  hosting: { enabled: true, private: null },
  folder: null,
  saveRss: null,
  cloud: 'own',
  pingSinks: [],
  shareBlogroll: false,
};

export function attachPublish(_ctx: AppContext): PublishApi {
  const notYet = {
    ok: false as const,
    error: { code: 'not_ready', message: 'Publishing is not wired yet.' },
  };
  return {
    post: async () => notYet,
    editPost: async () => notYet,
    deletePost: async () => notYet,
    listPosts: async () => [],
    saveDraft: async () => {},
    getDraft: async () => null,
    getPublishSettings: async () => DEFAULTS,
    updatePublishSettings: async () => notYet,
    publishInfo: async () => ({
      feedUrls: { rss: null, atom: null, json: null, home: null },
      publicUrls: [],
      cloud: null,
    }),
    countChars: async (text) => countGraphemes(text),
  };
}

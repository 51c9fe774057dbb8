/** Which top-level publish settings changed (the API takes a partial patch). Pure. */
import type { PublishSettings } from '../../../../src/app/api';

export function settingsPatch(saved: PublishSettings, draft: PublishSettings): Partial<PublishSettings> {
  const patch: Partial<PublishSettings> = {};
  for (const key of Object.keys(draft) as (keyof PublishSettings)[]) {
    if (JSON.stringify(draft[key]) !== JSON.stringify(saved[key]))
      Object.assign(patch, { [key]: draft[key] });
  }
  return patch;
}

/** The public rssCloud server the walkthrough names, as a one-click choice. */
export const PUBLIC_CLOUD: Exclude<PublishSettings['cloud'], 'own'> = {
  domain: 'rpc.rsscloud.io',
  port: 5337,
  path: '/pleaseNotify',
  protocol: 'http-post',
};

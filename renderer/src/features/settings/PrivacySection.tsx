/** Settings > Privacy: which pictures load, and whether feeds on the local network may be read. */
import type { ImagePolicy } from '../../../../src/app/api';
import { Checkbox } from '../../components/Checkbox';
import { RadioGroup } from '../../components/RadioGroup';
import { useApp } from '../../store/context';
import { useCoreSettingsDraft } from './core-settings-draft';

const IMAGE_CHOICES = [
  {
    value: 'blockTrackers',
    label: 'Load pictures, but not tracking pixels',
    hint: '1×1 images and known trackers are never requested (the default).',
    testId: 'settings-images-blockTrackers',
  },
  {
    value: 'clickToLoad',
    label: 'Load pictures only when I click',
    hint: 'Feeds you allow in their settings still load.',
    testId: 'settings-images-clickToLoad',
  },
  {
    value: 'load',
    label: 'Load every picture',
    hint: 'Tracking pixels included.',
    testId: 'settings-images-load',
  },
] as const;

const KEYS = ['images', 'allowLocalNetworkFeeds'] as const;

export function PrivacySection() {
  const setImagePolicy = useApp((s) => s.setImagePolicy);
  // The river shows pictures by the saved policy as soon as it is saved.
  const privacy = useCoreSettingsDraft('Privacy', KEYS, (s) => s.images && setImagePolicy(s.images));
  const draft = privacy.draft;
  return (
    <section id="settings-privacy" className="settings-section" aria-labelledby="settings-privacy-title">
      <h3 id="settings-privacy-title">Privacy</h3>
      {privacy.status && <p className="form-error">{privacy.status.text}</p>}
      {draft && (
        <>
          <RadioGroup<ImagePolicy>
            name="images"
            label="Pictures in items"
            value={draft.images ?? 'blockTrackers'}
            onChange={(images) => privacy.set({ images })}
            choices={IMAGE_CHOICES}
          />
          <Checkbox
            className="settings-check"
            checked={draft.allowLocalNetworkFeeds ?? false}
            onChange={(allowLocalNetworkFeeds) => privacy.set({ allowLocalNetworkFeeds })}
            testId="settings-local-network"
          >
            <span>
              Allow feeds on my local network
              <span className="settings-note settings-hint">
                Such as a home NAS at 192.168.x.x. Off, such addresses are refused. Link-local and
                cloud-metadata addresses are always refused.
              </span>
            </span>
          </Checkbox>
        </>
      )}
    </section>
  );
}

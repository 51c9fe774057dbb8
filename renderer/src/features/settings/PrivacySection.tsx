/** Settings > Privacy: which pictures load, and whether feeds on the local network may be read. */
import type { ImagePolicy } from '../../../../src/app/api';
import { Checkbox } from '../../components/Checkbox';
import { RadioGroup } from '../../components/RadioGroup';
import { SettingsSection } from '../../components/SettingsSection';
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
    <SettingsSection id="settings-privacy" title="Privacy" problem={privacy.status}>
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
            hint="Such as a home NAS at 192.168.x.x. Off, such addresses are refused. Link-local and cloud-metadata addresses are always refused."
          >
            Allow feeds on my local network
          </Checkbox>
        </>
      )}
    </SettingsSection>
  );
}

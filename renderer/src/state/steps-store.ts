import { create } from 'zustand';
import { PRESETS } from '../../../shared/api/presets';
import { formatSteps } from '../lib/step-checks';

export const CUSTOM_PRESET = 'custom';
/** "Run a Template": the Template's id is in `templateId`. */
export const TEMPLATE_PRESET = 'template';

interface StepsState {
  /** A preset id, or CUSTOM_PRESET. */
  readonly presetId: string;
  /** The custom editor's text; prefilled from the last preset chosen. */
  readonly customText: string;
  readonly choose: (presetId: string) => void;
  readonly setCustomText: (text: string) => void;
  /** The Template to run when presetId is TEMPLATE_PRESET, and the fields sent with it. */
  readonly templateId: string | null;
  readonly templateFields: Readonly<Record<string, string>>;
  readonly chooseTemplate: (templateId: string | null) => void;
  readonly setTemplateFields: (fields: Readonly<Record<string, string>>) => void;
}

const firstPreset = PRESETS[0];

export const useStepsChoice = create<StepsState>((set, get) => ({
  presetId: firstPreset?.id ?? CUSTOM_PRESET,
  customText: firstPreset ? formatSteps(firstPreset.steps) : '{\n  ":original": { "robot": "/upload/handle" }\n}',
  choose: (presetId) => {
    if (presetId === TEMPLATE_PRESET) return set({ presetId });
    const preset = PRESETS.find((p) => p.id === presetId);
    // Switching to Custom keeps the text; picking a preset loads its steps for later editing.
    if (preset) set({ presetId, customText: formatSteps(preset.steps) });
    else set({ presetId: CUSTOM_PRESET, customText: get().customText });
  },
  setCustomText: (customText) => set({ customText }),
  templateId: null,
  templateFields: {},
  chooseTemplate: (templateId) => set({ presetId: TEMPLATE_PRESET, templateId, templateFields: {} }),
  setTemplateFields: (templateFields) => set({ templateFields }),
}));

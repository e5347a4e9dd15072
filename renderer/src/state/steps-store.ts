import { create } from 'zustand';
import { PRESETS } from '../../../shared/api/presets';
import { EMPTY_UPLOAD_OPTIONS, type DraftChoice, type UploadOptions } from '../../../shared/ipc/draft-choice';
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
  /** The Options section (notify URL, limits, referer, fields, stack version), as typed. */
  readonly options: UploadOptions;
  readonly setOptions: (change: Partial<UploadOptions>) => void;
  /** Puts back a choice core kept (the last session's, or this one's before a reload). */
  readonly restore: (choice: DraftChoice) => void;
}

const firstPreset = PRESETS[0];

/** What core keeps of the choice. */
export const choiceOf = (state: Pick<StepsState, 'presetId' | 'customText' | 'templateId' | 'templateFields' | 'options'>): DraftChoice => ({
  presetId: state.presetId,
  customText: state.customText,
  templateId: state.templateId,
  templateFields: { ...state.templateFields },
  options: state.options,
});

/** Same choice (so an unrelated store change saves nothing). */
export const sameChoice = (a: DraftChoice, b: DraftChoice): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A kept choice as store state; a preset this version no longer has leaves the current one in place. */
export const stateOfChoice = (choice: DraftChoice): Partial<Pick<StepsState, 'presetId' | 'customText' | 'templateId' | 'templateFields' | 'options'>> => {
  const known = choice.presetId === CUSTOM_PRESET || choice.presetId === TEMPLATE_PRESET || PRESETS.some((p) => p.id === choice.presetId);
  return {
    ...(known ? { presetId: choice.presetId } : {}),
    customText: choice.customText,
    templateId: choice.templateId,
    templateFields: { ...choice.templateFields },
    // A draft saved before Options existed has none set.
    options: choice.options ?? EMPTY_UPLOAD_OPTIONS,
  };
};

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
  options: EMPTY_UPLOAD_OPTIONS,
  setOptions: (change) => set((s) => ({ options: { ...s.options, ...change } })),
  restore: (choice) => set(stateOfChoice(choice)),
}));

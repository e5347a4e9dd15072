import type { AssemblyListItem } from '../../../shared/ipc/assembly-models';
import { serviceDateToIso } from './list-params';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** `files` is a JSON string of names in the list (NS assemblyIndexItemSchema); tolerate an array too. */
function fileNames(v: unknown): string[] {
  let value = v;
  if (typeof v === 'string') {
    try {
      value = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string') : [];
}

/** One item of `GET /assemblies` → an Activity row. Lenient: an odd field is dropped, never the row. Null without an id. */
export function toListItem(raw: unknown): AssemblyListItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const item = raw as Record<string, unknown>;
  const id = str(item.id) ?? str(item.assembly_id);
  if (!id) return null;
  const error = str(item.error);
  const bytes = num(item.bytes_usage) ?? num(item.bytes_received) ?? num(item.bytes_expected);
  return {
    id,
    parentId: str(item.parent_id),
    templateId: str(item.template_id),
    state: error ?? str(item.ok) ?? 'UNKNOWN',
    error,
    created: serviceDateToIso(item.created),
    fileNames: fileNames(item.files),
    numInputFiles: num(item.num_input_files),
    bytes,
    executionDuration: num(item.execution_duration),
    notifyUrl: str(item.notify_url),
    run: null,
  };
}

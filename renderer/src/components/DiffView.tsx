import { json } from '@codemirror/lang-json';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { appHighlighting, shadowMount } from './CodeEditor';

/** Before and after, side by side, changed lines marked (CodeMirror's merge view); read-only. */
export const DiffView = ({ before, after, label }: { before: string; after: string; label: string }) => {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const side = (doc: string, name: string) => ({
      doc,
      extensions: [basicSetup, json(), appHighlighting, EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.contentAttributes.of({ 'aria-label': name })],
    });
    const { root, parent } = shadowMount(host.current);
    const merge = new MergeView({ a: side(before, `${label}: saved version`), b: side(after, `${label}: your version`), root, parent, collapseUnchanged: { margin: 3, minSize: 6 } });
    return () => {
      merge.destroy();
      parent.remove();
    };
  }, [before, after, label]);
  return (
    <div className="diff-view">
      <div className="diff-heads" aria-hidden="true">
        <span>Saved</span>
        <span>Yours</span>
      </div>
      {/* The scroll area is a Tab stop: read-only editors cannot take focus, so keys could not scroll it. */}
      <div ref={host} className="diff-body" data-testid="template-diff" tabIndex={0} role="region" aria-label={`${label}: changes`} />
    </div>
  );
};

import { json } from '@codemirror/lang-json';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLineGutter, lineNumbers } from '@codemirror/view';
import { minimalSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { appHighlighting, shadowMount } from './CodeEditor';

// The "show hidden lines" mark, the ExpandIcon of Icons.tsx as a data: URL (the CSP allows those), drawn
// in the text colour through a mask.
const EXPAND_SVG = `url("data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" fill="none" stroke="black" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"><path d="m5 6 3-3 3 3M5 10l3 3 3-3"/></svg>',
)}")`;
const expandMark = {
  content: '""',
  display: 'inline-block',
  width: '12px',
  height: '12px',
  verticalAlign: '-2px',
  backgroundColor: 'currentColor',
  maskImage: EXPAND_SVG,
  maskSize: '12px 12px',
  maskRepeat: 'no-repeat',
};

/**
 * The app's colours, and no glyph a platform font may lack: CodeMirror's merge view marks collapsed lines
 * with "⦚" (U+299A) and basicSetup's fold gutter uses "⌄"/"›", which many fonts draw as empty boxes. The
 * marks become an inline SVG and the fold gutter goes (collapsed unchanged lines already fold the diff).
 */
const diffTheme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg-raised)', color: 'var(--text)', fontSize: '12.5px' },
  '.cm-content': { fontFamily: 'var(--mono)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-sunken)', color: 'var(--text-muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-active)' },
  '.cm-collapsedLines': { color: 'var(--text-muted)', background: 'var(--bg-sunken)', fontFamily: 'var(--font)' },
  '.cm-collapsedLines:before': { ...expandMark, marginInlineEnd: '7px' },
  '.cm-collapsedLines:after': { ...expandMark, marginInlineStart: '7px' },
});

/** Before and after, side by side, changed lines marked (CodeMirror's merge view); read-only. */
export const DiffView = ({ before, after, label }: { before: string; after: string; label: string }) => {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const side = (doc: string, name: string) => ({
      doc,
      extensions: [
        minimalSetup,
        lineNumbers(),
        highlightActiveLineGutter(),
        json(),
        appHighlighting,
        diffTheme,
        EditorState.readOnly.of(true),
        EditorView.editable.of(false),
        EditorState.phrases.of({ '$ unchanged lines': '$ unchanged lines (click to show)' }),
        EditorView.contentAttributes.of({ 'aria-label': name }),
      ],
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

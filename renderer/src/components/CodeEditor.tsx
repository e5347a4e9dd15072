import { json } from '@codemirror/lang-json';
import { defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';

/** A message for one line of the document (1-based), shown in the gutter and underlined. */
export interface LineDiagnostic {
  readonly line: number;
  /** 1-based; the whole line when absent. */
  readonly column?: number;
  readonly message: string;
  /** `warning` for what is accepted but not advised; `error` when absent. */
  readonly severity?: 'error' | 'warning';
}

/** For a "Go to" link: put the cursor at a line (and column, 1-based) and focus the editor. */
export interface CodeEditorHandle {
  readonly focusAt: (line: number, column?: number) => void;
}

export interface CodeEditorProps {
  readonly value: string;
  readonly onChange?: (value: string) => void;
  readonly readOnly?: boolean;
  readonly diagnostics?: readonly LineDiagnostic[];
  readonly label: string;
  readonly 'data-testid'?: string;
  /** Fixed height keeps the layout still while the content grows. */
  readonly height?: string;
  /** `aria-invalid` on the editable text (a form field with problems). */
  readonly invalid?: boolean;
  /** `aria-describedby`: the id of the text that lists the problems. */
  readonly describedBy?: string;
  readonly handleRef?: Ref<CodeEditorHandle>;
}

/** Colours come from the app's CSS variables, so the editor follows the light and dark themes. */
const appTheme = EditorView.theme({
  '&': { backgroundColor: 'var(--bg-raised)', color: 'var(--text)', fontSize: '12.5px', height: '100%' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--text)' },
  // --text-muted is ≥ 4.5:1 on --bg-sunken; the current line's number is full --text (under --bg-active).
  '.cm-gutters': { backgroundColor: 'var(--bg-sunken)', color: 'var(--text-muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--bg-hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-active)', color: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-scroller': { overflow: 'auto' },
  '.cm-scroller:focus-visible': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-tooltip': { backgroundColor: 'var(--bg-raised)', border: '1px solid var(--border)' },
});

/** CodeMirror's default colours, each mapped to a token of app.css that is readable in both themes. */
const SYNTAX_TOKEN: Record<string, string> = {
  '#708': 'var(--syntax-keyword)',
  '#219': 'var(--syntax-atom)',
  '#164': 'var(--syntax-number)',
  '#a11': 'var(--syntax-string)',
  '#e40': 'var(--syntax-regexp)',
  '#940': 'var(--syntax-comment)',
  '#f00': 'var(--danger)',
  '#404740': 'var(--text-muted)',
};

/**
 * The default highlight style with theme-aware colours: its own (#a11 strings, #164 numbers) fall to
 * 2:1 on the dark background. Same tags, so JSON looks as before in the light theme.
 */
export const appHighlighting = syntaxHighlighting(
  HighlightStyle.define(defaultHighlightStyle.specs.map((spec) => (typeof spec.color === 'string' ? { ...spec, color: SYNTAX_TOKEN[spec.color] ?? 'var(--syntax-name)' } : spec))),
);

/**
 * A read-only editor's text cannot take focus, so its scroll area does: keyboard users can scroll it
 * (arrows, Page Up/Down), and screen readers hear it as a labelled region.
 */
export const focusableScroller = (view: EditorView, label: string): void => {
  view.scrollDOM.tabIndex = 0;
  view.scrollDOM.setAttribute('role', 'region');
  view.scrollDOM.setAttribute('aria-label', label);
};

const toDiagnostics = (state: EditorState, list: readonly LineDiagnostic[]): Diagnostic[] =>
  list.map((d) => {
    const line = state.doc.line(Math.min(Math.max(1, d.line), state.doc.lines));
    const from = d.column ? Math.min(line.from + d.column - 1, line.to) : line.from;
    return { from, to: Math.max(from, d.column ? Math.min(from + 1, line.to) : line.to), severity: d.severity ?? 'error', message: d.message };
  });

/**
 * CodeMirror styles itself with <style> elements, which the app's Content-Security-Policy
 * (`style-src 'self'`) blocks in a document. In a shadow root it uses constructed stylesheets instead,
 * which CSP allows, so the editor lives in one. CSS variables still inherit, so the themes apply.
 */
export function shadowMount(host: HTMLElement): { root: ShadowRoot; parent: HTMLDivElement } {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const parent = document.createElement('div');
  parent.style.height = '100%';
  root.append(parent);
  return { root, parent };
}

/** JSON editing and viewing with CodeMirror 6: syntax highlighting, line numbers, diagnostics at the line. */
export const CodeEditor = ({ value, onChange, readOnly = false, diagnostics = [], label, height = '360px', invalid, describedBy, handleRef, ...rest }: CodeEditorProps) => {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The ARIA state that changes while typing (invalid, its description) lives in its own compartment.
  const aria = useRef(new Compartment());
  const ariaOf = () => EditorView.contentAttributes.of({ ...(invalid ? { 'aria-invalid': 'true' } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) });
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // Texts this editor reported itself. React may render one of them after the user typed on (a render
  // lagging behind fast typing or a paste); pushing it back in would wipe what was just typed.
  const emitted = useRef<string[]>([]);

  useEffect(() => {
    if (!host.current) return;
    const { root, parent } = shadowMount(host.current);
    const editor = new EditorView({
      root,
      parent,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          json(),
          lintGutter(),
          appTheme,
          appHighlighting,
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          // An explicit tabindex on the editable text: one Tab stop as before, and axe then sees that a long
          // document's scroll area holds focusable content (scrollable-region-focusable).
          EditorView.contentAttributes.of({ 'aria-label': label, ...(readOnly ? { 'aria-readonly': 'true' } : { tabindex: '0' }) }),
          aria.current.of(ariaOf()),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            const text = u.state.doc.toString();
            emitted.current = [...emitted.current.slice(-19), text];
            onChangeRef.current?.(text);
          }),
        ],
      }),
    });
    if (readOnly) focusableScroller(editor, label);
    view.current = editor;
    return () => {
      editor.destroy();
      parent.remove();
      view.current = null;
    };
    // Created once per mode; value and diagnostics are pushed in by the effects below.
  }, [readOnly, label]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    if (editor.state.doc.toString() === value) {
      // React has caught up with the text: no older render can still arrive.
      emitted.current = [];
      return;
    }
    if (emitted.current.includes(value)) return;
    // A value from outside (a loaded Template, a reset): it replaces the text.
    emitted.current = [];
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, toDiagnostics(editor.state, diagnostics)));
  }, [diagnostics, value]);

  useEffect(() => {
    view.current?.dispatch({ effects: aria.current.reconfigure(ariaOf()) });
  }, [invalid, describedBy]);

  useImperativeHandle(
    handleRef,
    () => ({
      focusAt: (lineNumber, column) => {
        const editor = view.current;
        if (!editor) return;
        const line = editor.state.doc.line(Math.min(Math.max(1, lineNumber), editor.state.doc.lines));
        const at = Math.min(line.from + Math.max(0, (column ?? 1) - 1), line.to);
        editor.dispatch({ selection: EditorSelection.cursor(at), scrollIntoView: true });
        editor.focus();
      },
    }),
    [],
  );

  return <div ref={host} className="code-editor" style={{ height }} data-testid={rest['data-testid']} />;
};

import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { INK_COLORS } from '../ink-style.ts';
import type { BoardTool } from '../ink/ink-types.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './board-toolbar.module.css';

const TOOLS: BoardTool[] = [
  'pen',
  'highlighter',
  'line',
  'rect',
  'ellipse',
  'arrow',
  'text',
  'eraser',
  'laser',
];

export type BoardToolbarProps = {
  tool: BoardTool;
  color: string;
  widthStep: number;
  canUndo: boolean;
  canRedo: boolean;
  onTool: (tool: BoardTool) => void;
  onColor: (color: string) => void;
  onWidth: (step: number) => void;
  onUndo: () => void;
  onRedo: () => void;
  /** Clears the page on stage; absent for a writer who may not (nothing to clear). */
  onClear: () => void;
};

/** The 판서 tools: the tool, its colour and width, undo and redo, and clearing the page (asked first). */
export function BoardToolbar(props: BoardToolbarProps) {
  const { tool, color, widthStep } = props;
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={T.toolbar}>
      <div className={styles.group}>
        {TOOLS.map((name) => (
          <button
            key={name}
            type="button"
            className={styles.tool}
            aria-pressed={tool === name}
            onClick={() => props.onTool(name)}
          >
            {T.tools[name]}
          </button>
        ))}
      </div>
      <div className={styles.group} role="group" aria-label={T.color}>
        {INK_COLORS.map((swatch) => (
          <button
            key={swatch}
            type="button"
            className={styles.swatch}
            style={{ background: swatch }}
            aria-pressed={color === swatch}
            aria-label={T.colors[swatch] ?? swatch}
            title={T.colors[swatch] ?? swatch}
            onClick={() => props.onColor(swatch)}
          />
        ))}
      </div>
      <div className={styles.group} role="group" aria-label={T.width}>
        {T.widths.map((label, step) => (
          <button
            key={label}
            type="button"
            className={styles.tool}
            aria-pressed={widthStep === step}
            onClick={() => props.onWidth(step)}
          >
            {label}
          </button>
        ))}
      </div>
      <div className={styles.group}>
        <Button size="sm" variant="secondary" disabled={!props.canUndo} onClick={props.onUndo}>
          {T.undo}
        </Button>
        <Button size="sm" variant="secondary" disabled={!props.canRedo} onClick={props.onRedo}>
          {T.redo}
        </Button>
        <ConfirmDangerButton
          size="sm"
          variant="ghost"
          ask={{ title: T.clear, body: T.clearConfirm, confirmLabel: T.clear }}
          onConfirm={(close) => {
            props.onClear();
            close();
          }}
        >
          {T.clear}
        </ConfirmDangerButton>
      </div>
    </div>
  );
}

import Tooltip from '@mui/material/Tooltip';

/**
 * MUI's Tooltip, opened and closed by OverflowTooltip and placed at its element (the popper's
 * anchor), not at the tooltip's own child, which is an empty placeholder. A chunk of its own:
 * Tooltip and Popper are fetched on the first hover or focus of a cut text, not with the grids.
 */
export default function OverflowTooltipPopup({
  id,
  anchorEl,
  lines,
}: {
  id: string;
  anchorEl: HTMLElement;
  lines: string[];
}) {
  return (
    <Tooltip
      open
      id={id}
      placement="bottom-start"
      title={lines.map((line, i) => (
        <span key={i} style={{ display: 'block' }}>
          {line}
        </span>
      ))}
      disableHoverListener
      disableFocusListener
      disableTouchListener
      slotProps={{
        popper: { anchorEl },
        tooltip: { sx: { overflowWrap: 'anywhere', fontSize: '0.8125rem' } },
      }}
    >
      <span hidden />
    </Tooltip>
  );
}

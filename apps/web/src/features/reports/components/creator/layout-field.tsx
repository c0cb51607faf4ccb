import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { reportLayouts, type ReportLayout } from '@sitelog/shared';
import { useId } from 'react';

/** Where the photos sit on a page of each layout, as boxes on a 20 × 28 sheet. */
const cells: Record<ReportLayout, { x: number; y: number; w: number; h: number }[]> = {
  1: [{ x: 3, y: 3, w: 14, h: 19 }],
  2: [
    { x: 3, y: 3, w: 14, h: 9 },
    { x: 3, y: 14, w: 14, h: 9 },
  ],
  4: [
    { x: 3, y: 3, w: 6.5, h: 9 },
    { x: 10.5, y: 3, w: 6.5, h: 9 },
    { x: 3, y: 14, w: 6.5, h: 9 },
    { x: 10.5, y: 14, w: 6.5, h: 9 },
  ],
};

/** A small page with its photo boxes and caption lines: what the layout looks like. */
function LayoutPictogram({ layout }: { layout: ReportLayout }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 20 28"
      aria-hidden
      sx={{ width: 30, height: 42, flex: 'none', color: 'text.secondary', mr: 1 }}
    >
      <rect x="0.5" y="0.5" width="19" height="27" rx="1" fill="none" stroke="currentColor" />
      {cells[layout].map((cell, index) => (
        <g key={index}>
          <rect
            x={cell.x}
            y={cell.y}
            width={cell.w}
            height={cell.h - 2}
            fill="currentColor"
            opacity={0.55}
          />
          <rect
            x={cell.x}
            y={cell.y + cell.h - 1.2}
            width={cell.w * 0.7}
            height={0.8}
            fill="currentColor"
          />
        </g>
      ))}
    </Box>
  );
}

export const layoutLabel = (layout: ReportLayout) =>
  `${layout} photo${layout === 1 ? '' : 's'} per page`;

/** Photos per page: 1, 2 or 4, each choice with a pictogram of its page. */
export function LayoutField({
  value,
  onChange,
}: {
  value: ReportLayout;
  onChange: (layout: ReportLayout) => void;
}) {
  const labelId = useId();
  return (
    <FormControl component="fieldset">
      <FormLabel component="legend" id={labelId}>
        Layout
      </FormLabel>
      <RadioGroup
        row
        aria-labelledby={labelId}
        name="layout"
        value={String(value)}
        onChange={(event) => onChange(Number(event.target.value) as ReportLayout)}
        sx={{ columnGap: 2 }}
      >
        {reportLayouts.map((layout) => (
          <FormControlLabel
            key={layout}
            value={String(layout)}
            control={<Radio />}
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }}>
                <LayoutPictogram layout={layout} />
                {layoutLabel(layout)}
              </Box>
            }
            sx={{ mr: 0 }}
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}

import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import Chip from '@mui/material/Chip';

/** The "Archived" mark of a read-only project, next to its name wherever it is shown. */
export function ArchivedChip({ ml = 0 }: { /** Space before it, in theme units. */ ml?: number }) {
  return (
    <Chip
      icon={<ArchiveOutlined aria-hidden />}
      label="Archived"
      size="small"
      // The stone secondary: its text reads at AA in both colour modes (MUI's warning does not).
      color="secondary"
      sx={{ ml, verticalAlign: 'middle', fontWeight: 500 }}
    />
  );
}

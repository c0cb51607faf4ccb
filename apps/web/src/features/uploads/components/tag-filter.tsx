import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/lib/paths';
import { useTagSuggestions } from '../api/get-tag-suggestions';
import { projectTagPath } from '../tag-paths';

/**
 * The project's tags, most used first (at most 20), as links that filter its uploads: "All" and
 * one chip per tag, the chosen one marked current. One row that scrolls sideways on a phone,
 * wrapped lines on wider screens. Nothing while the project has no tags.
 */
export function TagFilter({ projectId, tag }: { projectId: number; tag: string | null }) {
  const suggestions = useTagSuggestions('', { projectId });
  if (suggestions.isError)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        The project’s tags could not be loaded; its uploads are all shown.
      </Typography>
    );
  const tags = (suggestions.data ?? []).map((s) => s.tag);
  // A tag chosen by link that is not among the most used still shows, chosen.
  if (tag !== null && !tags.includes(tag)) tags.push(tag);
  if (tags.length === 0) return null;
  const chip = (label: string, to: string, current: boolean, key: string) => (
    <li key={key}>
      <Chip
        component={RouterLink}
        to={to}
        clickable
        label={label}
        color={current ? 'primary' : 'default'}
        variant={current ? 'filled' : 'outlined'}
        aria-current={current ? 'true' : undefined}
        icon={key === 'all' ? undefined : <LocalOfferOutlined />}
      />
    </li>
  );
  return (
    <Box component="nav" aria-label="Filter uploads by tag" sx={{ mb: 2 }}>
      <Box
        component="ul"
        sx={{
          display: 'flex',
          gap: 1,
          p: 0,
          m: 0,
          pb: { xs: 0.5, md: 0 },
          listStyle: 'none',
          flexWrap: { xs: 'nowrap', md: 'wrap' },
          overflowX: { xs: 'auto', md: 'visible' },
          '& > li': { flexShrink: 0 },
        }}
      >
        {chip('All', paths.project(projectId), tag === null, 'all')}
        {tags.map((t) => chip(t, projectTagPath(projectId, t), t === tag, `tag:${t}`))}
      </Box>
    </Box>
  );
}

import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReportDetail } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { ArchivedChip } from '@/components/archived-chip';
import { Fact } from '@/components/fact';
import { formatDateTime } from '@/lib/format-date';
import { paths } from '@/lib/paths';
import { authorName, formatDayRange, plural, typeLabel } from '../report-text';

/**
 * What a report is, as its cover says it: type, project, author, the days it covers, its photos,
 * when it was made, the team name on the cover, the layout and time zone; then the intro as the
 * author wrote it (text, its line breaks kept).
 */
export function ReportFacts({ report }: { report: ReportDetail }) {
  return (
    <Box sx={{ mb: 4 }}>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(3, minmax(0, 1fr))',
            md: 'repeat(4, minmax(0, 1fr))',
          },
          gap: 2,
        }}
      >
        <Fact label="Type">{typeLabel(report)}</Fact>
        <Fact label="Project">
          <Link component={RouterLink} to={paths.project(report.project.id)}>
            {report.project.name}
          </Link>
          {report.project.archived ? <ArchivedChip ml={1} /> : null}
        </Fact>
        <Fact label="Author">
          <Link component={RouterLink} to={paths.memberProfile(report.author.id)}>
            {authorName(report)}
          </Link>
        </Fact>
        <Fact label="Covers">{formatDayRange(report.from, report.to)}</Fact>
        <Fact label="Photos">
          {plural(report.photoCount, 'photo')}
          {report.goneCount > 0 ? ` (${report.goneCount} deleted or moved since)` : ''}
        </Fact>
        <Fact label="Created">
          <time dateTime={report.createdAt}>{formatDateTime(report.createdAt)}</time>
        </Fact>
        <Fact label="Company or team name">
          {report.teamName.trim() === '' ? '—' : report.teamName}
        </Fact>
        <Fact label="Layout">
          {report.layout === 1 ? '1 photo per page' : `${report.layout} photos per page`}
        </Fact>
      </Box>
      {report.intro.trim() !== '' ? (
        <Box sx={{ mt: 3, maxWidth: '75ch' }}>
          <Typography component="h2" variant="subtitle2" color="text.secondary" sx={{ mb: 0.5 }}>
            Intro
          </Typography>
          <Typography variant="body1" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {report.intro}
          </Typography>
        </Box>
      ) : null}
    </Box>
  );
}

import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { Section } from '@/components/section';
import { UnderConstruction } from '@/components/under-construction';
import { paths } from '@/lib/paths';

/** The kinds of report the placeholder shows as sample tiles (spec §2); none is real data. */
const sampleReports = [
  { title: 'Daily site report', description: 'Weather, crew, work done and photos of the day.' },
  { title: 'Safety walk', description: 'Hazards found on site, with photos and who fixes them.' },
  { title: 'Defect list', description: 'Open defects by trade, each with its photo evidence.' },
];

/** Where a report for this project would be created (the spec's "report-creator" route). */
export const reportCreatorPath = (projectId: number) => paths.reportCreate(projectId);

/** The project page's Reports section: a placeholder with sample tiles (spec §2). */
export function ProjectReportsSection({ projectId }: { projectId: number }) {
  return (
    <Section title="Reports">
      <Stack spacing={1.5}>
        <UnderConstruction whatWillBeHere="Reports on this project (daily reports, safety walks, defect lists) will be listed here. The tiles below are samples." />
        <Box
          component="ul"
          aria-label="Sample reports"
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
            gap: 1.5,
          }}
        >
          {sampleReports.map((report) => (
            <Box component="li" key={report.title}>
              <Card variant="outlined" sx={{ height: '100%', borderStyle: 'dashed' }}>
                <CardActionArea
                  component={RouterLink}
                  to={reportCreatorPath(projectId)}
                  sx={{ height: '100%' }}
                >
                  <CardContent>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
                      <AssessmentOutlined aria-hidden fontSize="small" color="action" />
                      <Typography component="h3" variant="subtitle2" sx={{ flex: 1 }}>
                        {report.title}
                      </Typography>
                      <Chip label="Sample" size="small" variant="outlined" />
                    </Stack>
                    <Typography variant="body2" color="text.secondary">
                      {report.description}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </Box>
          ))}
        </Box>
      </Stack>
    </Section>
  );
}

import Stack from '@mui/material/Stack';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { UnderConstruction } from '@/components/under-construction';
import { useDocumentTitle } from '@/lib/use-document-title';

const sections = [
  {
    title: 'Projects',
    what: 'Projects whose name, location or description match will be listed here.',
  },
  { title: 'Uploads', what: 'Photos whose name or description match will be listed here.' },
  { title: 'Reports', what: 'Reports that mention what you searched for will be listed here.' },
] as const;

/**
 * /search?q=…: the top bar's search box lands here. Placeholder sections Projects, Uploads and
 * Reports (spec §2); the query is shown so the user sees what they asked for.
 */
export function SearchPage() {
  const [params] = useSearchParams();
  const query = params.get('q')?.trim() ?? '';
  useDocumentTitle(query ? `Search: ${query}` : 'Search');

  return (
    <>
      <PageHeader
        title="Search"
        subtitle={
          query ? (
            <>Results for “{query}”</>
          ) : (
            'Type in the search box at the top to look through projects, uploads and reports.'
          )
        }
      />
      <Stack>
        {sections.map((section) => (
          <Section key={section.title} title={section.title}>
            <UnderConstruction whatWillBeHere={section.what} />
          </Section>
        ))}
      </Stack>
    </>
  );
}

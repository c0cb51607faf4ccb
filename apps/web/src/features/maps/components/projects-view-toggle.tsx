import MapOutlined from '@mui/icons-material/MapOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useSearchParams } from 'react-router';

export type ProjectsView = 'list' | 'map';

/** All projects' view, kept in the URL (`?view=map`; the list has no parameter). */
export function useProjectsView(): ProjectsView {
  const [params] = useSearchParams();
  return params.get('view') === 'map' ? 'map' : 'list';
}

/** List / Map switch of All projects; it replaces the URL's `view`, keeping other parameters. */
export function ProjectsViewToggle() {
  const view = useProjectsView();
  const [, setParams] = useSearchParams();
  const choose = (next: ProjectsView) =>
    setParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'map') params.set('view', 'map');
        else params.delete('view');
        return params;
      },
      { replace: true },
    );
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={view}
      aria-label="View"
      onChange={(_event, next: ProjectsView | null) => {
        if (next) choose(next);
      }}
    >
      <ToggleButton value="list" sx={{ gap: 0.75, px: 1.5 }}>
        <ViewListOutlined aria-hidden fontSize="small" />
        List
      </ToggleButton>
      <ToggleButton value="map" sx={{ gap: 0.75, px: 1.5 }}>
        <MapOutlined aria-hidden fontSize="small" />
        Map
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

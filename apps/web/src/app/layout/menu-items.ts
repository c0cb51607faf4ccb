import type SvgIcon from '@mui/material/SvgIcon';
import AddBoxOutlined from '@mui/icons-material/AddBoxOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import { paths } from '@/lib/paths';

export interface MenuItem {
  label: string;
  to: string;
  icon: typeof SvgIcon;
  adminOnly?: boolean;
}

/** The side menu of spec §2, in its order; Admin only for admins. */
export const menuItems: readonly MenuItem[] = [
  { label: 'New project', to: paths.newProject, icon: AddBoxOutlined },
  { label: 'My projects', to: paths.myProjects, icon: FolderOutlined },
  { label: 'All projects', to: paths.allProjects, icon: ViewListOutlined },
  { label: 'Reports', to: paths.reports, icon: AssessmentOutlined },
  { label: 'Photos', to: paths.latestUploads, icon: PhotoLibraryOutlined },
  { label: 'Team', to: paths.teams, icon: GroupsOutlined },
  { label: 'Archive', to: paths.archivedProjects, icon: ArchiveOutlined },
  { label: 'My profile', to: paths.profile, icon: PersonOutline },
  { label: 'Events', to: paths.events, icon: EventNoteOutlined },
  { label: 'Search', to: paths.search(), icon: SearchOutlined },
  { label: 'Admin', to: paths.admin, icon: AdminPanelSettingsOutlined, adminOnly: true },
];

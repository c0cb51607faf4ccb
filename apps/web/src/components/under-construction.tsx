import ConstructionIcon from '@mui/icons-material/Construction';
import { EmptyState } from './empty-state';

/** Marks a screen or section the product has not built yet, saying what will be there. */
export function UnderConstruction({ whatWillBeHere }: { whatWillBeHere: string }) {
  return (
    <EmptyState
      icon={<ConstructionIcon />}
      message="Under construction"
      description={whatWillBeHere}
    />
  );
}

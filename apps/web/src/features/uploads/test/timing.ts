import { configure } from '@testing-library/react';

// These tests render the whole app (router, layout, MUI) on a shared, often busy machine:
// give findBy/waitFor more than the default second before calling something missing.
configure({ asyncUtilTimeout: 5000 });

import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { limits, type ProjectInput } from '@sitelog/shared';
import { useState, type FormEvent, type ReactNode } from 'react';
import { isOverLimit, LimitedTextField } from '@/components/character-limit';
import { FormError } from './form-error';
import { LocationField, type LocationValue } from './location-field';

export interface ProjectFormValues extends LocationValue {
  name: string;
  description: string;
}

export const emptyProjectForm: ProjectFormValues = {
  name: '',
  location: '',
  latitude: null,
  longitude: null,
  description: '',
};

interface ProjectFormProps {
  /** The form's accessible name, e.g. "New project". */
  label: string;
  initialValues?: ProjectFormValues;
  submitLabel: string;
  onSubmit: (project: ProjectInput) => void;
  pending: boolean;
  /** The last failed save, shown below the form; null while none. */
  error: unknown;
  /** Extra buttons beside the submit button (e.g. Cancel in a dialog). */
  secondaryActions?: ReactNode;
}

/**
 * NAME, LOCATION (place autocomplete), DESCRIPTION (optional). The submit button stays disabled
 * until name and location are filled (spec §5) and while a field is past its length limit (the
 * field says so, with a counter from near the limit on); the server trims and validates again.
 */
export function ProjectForm({
  label,
  initialValues = emptyProjectForm,
  submitLabel,
  onSubmit,
  pending,
  error,
  secondaryActions,
}: ProjectFormProps) {
  const [values, setValues] = useState<ProjectFormValues>(initialValues);
  const complete =
    values.name.trim() !== '' &&
    values.location.trim() !== '' &&
    !isOverLimit(values.name, limits.nameMax) &&
    !isOverLimit(values.location, limits.locationMax) &&
    !isOverLimit(values.description, limits.descriptionMax);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || pending) return;
    onSubmit({
      name: values.name,
      location: values.location,
      description: values.description,
      latitude: values.latitude,
      longitude: values.longitude,
    });
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} aria-label={label}>
      <LimitedTextField
        label="Name"
        name="name"
        value={values.name}
        max={limits.nameMax}
        limitLabel="Name"
        onChange={(event) => setValues((current) => ({ ...current, name: event.target.value }))}
        disabled={pending}
        fullWidth
        autoComplete="off"
        slotProps={{ htmlInput: { 'aria-required': true } }}
      />
      <LocationField
        value={values}
        onChange={(location) => setValues((current) => ({ ...current, ...location }))}
        disabled={pending}
        required
      />
      <LimitedTextField
        label="Description"
        name="description"
        value={values.description}
        max={limits.descriptionMax}
        limitLabel="Description"
        onChange={(event) =>
          setValues((current) => ({ ...current, description: event.target.value }))
        }
        disabled={pending}
        fullWidth
        multiline
        minRows={3}
        helperText="Optional"
      />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        {secondaryActions}
        <Button type="submit" variant="contained" disabled={!complete} loading={pending}>
          {submitLabel}
        </Button>
      </Stack>
      {error && !pending ? <FormError error={error} /> : null}
    </Stack>
  );
}

import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { PasswordOwner } from '@sitelog/shared/password-policy';
import { useMemo } from 'react';
import { usePasswordPolicy } from '@/lib/password-policy';
import { useDebouncedValue } from '@/lib/use-debounced-value';

interface PasswordStrengthProps {
  password: string;
  /** Whose password it is: their name and email make a password weak. */
  owner: PasswordOwner;
  /** Load the estimator (~850 KB gzip) only once the user is about to type a password. */
  load: boolean;
}

/**
 * A strength meter under a new-password field: the server's own policy run in the browser, so
 * "weak" here means the server will refuse it, with the same reason. It advises and never
 * blocks: the form can always be sent and the server decides. The text is announced politely
 * once typing pauses, not on every key.
 */
export function PasswordStrength({ password, owner, load }: PasswordStrengthProps) {
  const policy = usePasswordPolicy(load);
  const typed = useDebouncedValue(password, 300);
  const { firstname, lastname, email } = owner;
  const verdict = useMemo(
    () => (policy && typed !== '' ? policy(typed, { firstname, lastname, email }) : null),
    [policy, typed, firstname, lastname, email],
  );
  const accepted = verdict !== null && verdict.problem === null;
  const text = verdict
    ? `Strength: ${verdict.label}${verdict.reason ? ` — ${verdict.reason}` : ''}`
    : '';

  return (
    <Box>
      {verdict ? (
        <LinearProgress
          variant="determinate"
          value={(verdict.score + 1) * 20}
          color={accepted ? 'success' : 'error'}
          aria-label="Password strength"
          aria-valuetext={verdict.label}
          sx={{ height: 6, borderRadius: 3 }}
        />
      ) : null}
      {/* Always in the page, so screen readers announce what is written into it. */}
      <Typography
        aria-live="polite"
        variant="body2"
        color={accepted ? 'text.secondary' : 'error'}
        sx={{ mt: verdict ? 0.5 : 0 }}
      >
        {text}
      </Typography>
    </Box>
  );
}

import ContentCopy from '@mui/icons-material/ContentCopy';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  reportLimits,
  type CreatedReportLink,
  type ReportDetail,
  type ReportLink,
} from '@sitelog/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { ErrorState } from '@/components/error-state';
import { Section } from '@/components/section';
import { ListSkeleton } from '@/components/skeletons';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { useOnline } from '@/lib/use-online';
import { useCreateReportLink } from '../api/create-report-link';
import { useReportLinks } from '../api/get-report-links';
import { useRevokeReportLink } from '../api/revoke-report-link';
import { copyText } from '../copy-text';
import { plural } from '../report-text';

/** How long a new link may work, in days; the contract's default is the one preselected. */
export const LINK_DAYS = [7, 30, 90] as const;

/** The link as someone outside the team opens it: the server's path on this app's address. */
export const sharedLinkUrl = (link: Pick<CreatedReportLink, 'path'>) =>
  new URL(link.path, window.location.origin).href;

type CopyState = 'idle' | 'copied' | 'selected';

/**
 * A new link, shown this once (only its hash is stored): the address (focused and selected when
 * it appears, ready to copy), COPY LINK and DONE.
 */
function NewLink({ link, onDone }: { link: CreatedReportLink; onDone: () => void }) {
  const field = useRef<HTMLTextAreaElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');
  useEffect(() => {
    field.current?.focus();
  }, []);
  const url = sharedLinkUrl(link);
  return (
    <Alert
      severity="success"
      icon={<LinkOutlined />}
      sx={{ '& .MuiAlert-message': { flex: 1, minWidth: 0 } }}
    >
      <Stack spacing={1.5}>
        <Typography variant="body2">
          {`New link, working until ${formatDateTime(link.expiresAt)}. Copy it now: it is shown only this once.`}
        </Typography>
        <TextField
          label="Public link"
          value={url}
          inputRef={field}
          size="small"
          fullWidth
          multiline
          onFocus={(event) => event.target.select()}
          slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
          sx={{
            bgcolor: 'background.paper',
            '& textarea': { fontFamily: 'monospace', wordBreak: 'break-all' },
          }}
        />
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          <Button
            variant="contained"
            size="small"
            startIcon={<ContentCopy />}
            onClick={() =>
              void copyText(url, field.current).then((copied) =>
                setCopy(copied ? 'copied' : 'selected'),
              )
            }
          >
            Copy link
          </Button>
          <Button size="small" onClick={onDone}>
            Done
          </Button>
          <Typography role="status" variant="body2">
            {copy === 'copied' ? 'Link copied.' : null}
            {copy === 'selected'
              ? 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.'
              : null}
          </Typography>
        </Stack>
      </Stack>
    </Alert>
  );
}

/** Active, expired or revoked, as a small mark. */
function LinkState({ link }: { link: ReportLink }) {
  if (link.revokedAt !== null) return <Chip size="small" label="Revoked" />;
  if (!link.active) return <Chip size="small" label="Expired" />;
  return <Chip size="small" color="success" variant="outlined" label="Active" />;
}

function LinkRow({ link, onRevoke }: { link: ReportLink; onRevoke: (link: ReportLink) => void }) {
  const creator = `${link.createdBy.firstname} ${link.createdBy.lastname}`;
  const downloads =
    link.downloads === 0
      ? 'Not downloaded yet'
      : `${plural(link.downloads, 'download')}${link.lastDownloadAt ? `, last ${formatDateTime(link.lastDownloadAt)}` : ''}`;
  return (
    <Box
      component="li"
      data-report-link={link.id}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'center',
        justifyContent: 'space-between',
        py: 1.25,
      }}
    >
      <Box sx={{ minWidth: 0, flex: '1 1 240px' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {`Made ${formatDate(link.createdAt)} by ${creator}`}
          </Typography>
          <LinkState link={link} />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {link.revokedAt !== null
            ? `Revoked ${formatDateTime(link.revokedAt)}`
            : `${link.active ? 'Expires' : 'Expired'} ${formatDateTime(link.expiresAt)}`}
          {` · ${downloads}`}
        </Typography>
      </Box>
      {link.active ? (
        <Button
          size="small"
          color="error"
          startIcon={<LinkOffOutlined />}
          onClick={() => onRevoke(link)}
        >
          Revoke
        </Button>
      ) : null}
    </Box>
  );
}

/** Asks before a link stops working. */
function RevokeLinkDialog({
  reportId,
  link,
  onClose,
  onRevoked,
}: {
  reportId: number;
  link: ReportLink | null;
  onClose: () => void;
  /** The link is revoked (after `onClose`). */
  onRevoked: () => void;
}) {
  const revoke = useRevokeReportLink(reportId);
  const online = useOnline();
  const titleId = useId();
  const textId = useId();
  // The last link asked about stays drawn while the dialog fades out.
  const [shown, setShown] = useState(link);
  if (link && link !== shown) setShown(link);
  const current = link ?? shown;
  // Never held open: a request on its way is forgotten here (its answer still refreshes the list).
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <Dialog
      open={link !== null}
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>Revoke this link?</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {current
            ? `Anyone who has the link made ${formatDate(current.createdAt)} can no longer open the PDF. Links made later keep working. This cannot be undone.`
            : ''}
        </DialogContentText>
        {revoke.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(revoke.error)}
          </Alert>
        ) : null}
        {!online ? (
          <Alert severity="info" sx={{ mt: 2 }} data-offline-note>
            You are offline: the link can be revoked when the connection returns.
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          loading={revoke.isPending}
          disabled={!online}
          onClick={() => {
            if (link)
              revoke.mutate(link.id, {
                onSuccess: () => {
                  revoke.reset();
                  onClose();
                  onRevoked();
                },
              });
          }}
        >
          Revoke link
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * "Share outside the team", for the report's author or an admin: public links to the PDF for
 * people without an account (the client, the insurer). Each works until it expires (7, 30 or 90
 * days) or is revoked, opens that one PDF and nothing else, and counts its downloads. A new
 * link's address is shown once, with COPY LINK (the focus goes to it); after DONE or a revoke
 * the focus goes to the links' heading (the button pressed is gone). Offline nothing is sent:
 * CREATE LINK and REVOKE wait for the connection.
 */
export function ReportSharePanel({ report }: { report: ReportDetail }) {
  const links = useReportLinks(report.id);
  const create = useCreateReportLink(report.id);
  const online = useOnline();
  const [days, setDays] = useState<number>(reportLimits.linkDaysDefault);
  const [created, setCreated] = useState<CreatedReportLink | null>(null);
  const [revoking, setRevoking] = useState<ReportLink | null>(null);
  const hasPdf = report.pdf !== null;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Set when the revoke dialog closes: focused once it has closed and given the focus back.
  const focusHeading = useRef(false);
  useEffect(() => {
    if (!focusHeading.current || revoking !== null) return;
    focusHeading.current = false;
    heading.current?.focus();
  });

  let list;
  if (links.isPending) list = <ListSkeleton rows={2} label="Loading links…" />;
  else if (links.isError)
    list = (
      <ErrorState
        error={links.error}
        title="Could not load the links"
        onRetry={() => void links.refetch()}
        retrying={links.isFetching}
      />
    );
  else if (links.data.length === 0)
    list = (
      <Typography variant="body2" color="text.secondary">
        No links yet.
      </Typography>
    );
  else
    list = (
      <Box
        component="ul"
        aria-labelledby={headingId}
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          '& > li + li': { borderTop: 1, borderColor: 'divider' },
        }}
      >
        {links.data.map((link) => (
          <LinkRow key={link.id} link={link} onRevoke={setRevoking} />
        ))}
      </Box>
    );

  return (
    <Section title="Share outside the team">
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 } }}>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '75ch' }}>
            A public link opens this report’s PDF for anyone who has it, without signing in, until
            it expires or you revoke it. It opens nothing else, and every download is counted.
          </Typography>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1.5}
            sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
          >
            <TextField
              select
              size="small"
              label="Works for"
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
              sx={{ minWidth: 160 }}
            >
              {LINK_DAYS.map((option) => (
                <MenuItem key={option} value={option}>
                  {`${option} days`}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="outlined"
              startIcon={<LinkOutlined />}
              disabled={!hasPdf || !online}
              loading={create.isPending}
              loadingPosition="start"
              onClick={() =>
                create.mutate({ expiresInDays: days }, { onSuccess: (link) => setCreated(link) })
              }
            >
              Create link
            </Button>
            {!hasPdf ? (
              <Typography variant="body2" color="text.secondary">
                A link can be made once the PDF is ready.
              </Typography>
            ) : !online ? (
              <Typography variant="body2" color="text.secondary" data-offline-note>
                You are offline: a link can be made when the connection returns.
              </Typography>
            ) : null}
          </Stack>
          {create.isError ? (
            <Alert severity="error" role="alert" onClose={() => create.reset()}>
              {`Could not make the link. ${errorMessage(create.error)}`}
            </Alert>
          ) : null}
          {created ? (
            <NewLink
              link={created}
              onDone={() => {
                setCreated(null);
                heading.current?.focus();
              }}
            />
          ) : null}
          <Typography ref={heading} id={headingId} tabIndex={-1} component="h3" variant="subtitle2">
            Public links
          </Typography>
          {list}
        </Stack>
      </Paper>
      <RevokeLinkDialog
        reportId={report.id}
        link={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={() => {
          focusHeading.current = true;
        }}
      />
    </Section>
  );
}

import { useEffect, useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import { formatWhen } from './admin-ui';
import { request } from '../../lib/http';
import { formatBytes, type BackupStatusView } from '../../../contract/backups.ts';

/** "12.3 MB" ("512 bytes" under a kilobyte). */
const size = (bytes: number) => formatBytes(bytes, 'bytes');

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Read only (issue 21): when the last backup was made, how big it is, where backups go. */
function BackupPanel() {
  const id = useId();
  const [status, setStatus] = useState<BackupStatusView | null>(null);
  const [late, setLate] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    request<BackupStatusView>('GET', '/api/admin/backups', { session: 'admin' })
      .then((r) => {
        if (!r.ok) return setFailed(true);
        setStatus(r.data);
        // Late: the server makes them, and none within two intervals.
        const { last, auto, intervalHours } = r.data;
        setLate(auto && !!last && Date.now() - new Date(last.at).getTime() > 2 * intervalHours * 3_600_000);
      })
      .catch(() => setFailed(true));
  }, []);

  if (failed) return <p role="alert">The backup status could not be loaded. Please reload the page.</p>;
  if (!status) return <p role="status">Loading…</p>;
  const { last } = status;
  return (
    <section className="admin-panel" aria-labelledby={`${id}-heading`} data-backup-status>
      <h2 id={`${id}-heading`}>Backups</h2>
      {last ? (
        <p>
          Last backup: <strong data-backup-at>{formatWhen(last.at)}</strong>, <span data-backup-size>{size(last.bytes)}</span>{' '}
          <span className="muted">({last.file})</span>
        </p>
      ) : (
        <p>{status.auto ? 'No backup yet: the first is made a minute after the server starts.' : 'No backup has been made yet.'}</p>
      )}
      {late && <p role="alert">The last automatic backup is older than it should be. If this lasts, ask whoever runs the server to look at its log.</p>}
      {status.auto ? (
        <p className="muted">
          The site backs itself up every {status.intervalHours === 24 ? 'day' : `${status.intervalHours} hours`} into {status.dir}, keeping one a day for{' '}
          {plural(status.keep.daily, 'day')} and one a week for {plural(status.keep.weekly, 'week')}. Copy that folder somewhere else too: a backup on the same
          disk is lost with it.
        </p>
      ) : status.database === 'postgres' ? (
        <p className="muted">
          The site&apos;s database is a PostgreSQL server: its provider makes the backups (see the deployment guide). Backups made with{' '}
          <code>npm run backup</code> go to {status.dir}.
        </p>
      ) : (
        <p className="muted">
          Automatic backups are off (BACKUP_AUTO=0). Backups made with <code>npm run backup</code> go to {status.dir}.
        </p>
      )}
    </section>
  );
}

export default adminScreen('/admin/backups', 'Backups', BackupPanel);

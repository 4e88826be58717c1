/**
 * The worker thread of a fresh build (see parallel-prepare.ts): prepares the memory files of
 * each batch it is sent, in order, and posts them back, then bumps the shared counter the
 * index's thread sleeps on.
 */
import { workerData } from 'node:worker_threads';
import type { PrepareJob, PrepareReply, PrepareWorkerData } from './parallel-prepare.js';

const { port, signal, base, wikilinks } = workerData as PrepareWorkerData;

function post(reply: PrepareReply): void {
  port.postMessage(reply);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

try {
  const [{ prepareFile, NO_LINKS }, { packPrepared }, links] = await Promise.all([
    import('./prepare-file.js'),
    import('./parallel-prepare.js'),
    wikilinks ? import('../../core/wikilinks.js').then((m) => m.extractWikilinks) : undefined,
  ]);
  port.on('message', (job: PrepareJob) => {
    try {
      post({ id: job.id, files: job.entries.map((entry) => packPrepared(prepareFile(entry, { base, links: links ?? NO_LINKS }))) });
    } catch (err) {
      post({ id: job.id, error: String(err) });
    }
  });
} catch (err) {
  // The modules did not load: the index prepares every file itself.
  post({ id: -1, error: String(err) });
}

import { evaluateListChunk } from '../lists/list-evaluation';
import type { JobMessage } from './job-queue';

/** Runs one chunk of a job by its kind; answers the next chunk's message, if any. */
export async function runJob(message: JobMessage): Promise<JobMessage | undefined> {
  switch (message.kind) {
    case 'list-evaluation':
      return evaluateListChunk(message);
  }
}

import { findCompany, saveCompany, type CompanyRecord, type CompanyWrite } from '../db/companies';
import { ConflictError, ServiceUnavailableError, ValidationError } from '../errors';
import { invalidAssociationTargets } from './company-association-entries';
import { searchFormsOf } from './search-forms';

// Every stale attempt means another writer succeeded, so ten racing writers need at most ten rounds.
const maxAttempts = 12;

/**
 * Runs build-and-save until it sticks: a stale version or a transaction conflict re-reads and
 * tries again, a taken unique value is a 409 naming the company that holds it.
 */
export async function saveWithRetries(hubId: number, build: (attempt: number) => Promise<CompanyWrite | undefined>): Promise<CompanyWrite | undefined> {
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    // Full jitter: racing writers spread out instead of colliding again in lockstep.
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** Math.min(attempt, 6)));
    const write = await build(attempt);
    if (!write) return undefined;
    const result = await saveCompany(hubId, write, searchFormsOf(write.record));
    if (result.outcome === 'saved') return write;
    if (result.outcome === 'unique-taken') {
      // The holder vanished between the failed write and the lookup: the value may be free now.
      if (result.ownerId === undefined || result.ownerId === write.record.id) continue;
      const { propertyName, value } = result.value;
      throw new ConflictError(`A company with ${propertyName} ${value} already exists. Existing ID: ${result.ownerId}`, {
        context: { [propertyName]: [value], id: [result.ownerId] },
      });
    }
    if (result.outcome === 'linked-missing') throw invalidAssociationTargets([result.companyId]);
    if (result.outcome === 'too-large') {
      throw new ValidationError('The change would make a record exceed the maximum record size', { context: { id: [write.record.id] } });
    }
  }
  throw new ServiceUnavailableError('The company is being changed by other requests; retry the request.');
}

/**
 * Changes an existing company: every attempt re-reads it and `build` derives the write from what
 * it read (undefined: nothing to change). Undefined when the company does not exist; otherwise the
 * last record read and the write that was saved, if any.
 */
export async function saveCompanyChange(
  hubId: number, companyId: string, build: (record: CompanyRecord) => Promise<CompanyWrite | undefined> | CompanyWrite | undefined,
): Promise<{ record: CompanyRecord; write?: CompanyWrite } | undefined> {
  let current: CompanyRecord | undefined;
  const write = await saveWithRetries(hubId, async () => {
    current = await findCompany(hubId, companyId);
    return current ? build(current) : undefined;
  });
  return current ? { record: current, write } : undefined;
}

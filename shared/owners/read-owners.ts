import { NotFoundError } from '../base/errors';
import * as owners from '../db/owners';
import type { Owner } from '../db/owners';

/** HubSpot's PublicOwner: a user of the account is an owner of type PERSON. */
export interface PublicOwner {
  id: string;
  email: string;
  type: 'PERSON';
  firstName: string;
  lastName: string;
  userId: number;
  userIdIncludingInactive: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

export function publicOwnerOf(owner: Owner): PublicOwner {
  return {
    id: String(owner.ownerId),
    email: owner.email,
    type: 'PERSON',
    firstName: owner.firstName,
    lastName: owner.lastName,
    userId: owner.userId,
    userIdIncludingInactive: owner.userId,
    createdAt: owner.createdAt,
    updatedAt: owner.updatedAt,
    archived: owner.archived,
  };
}

export interface OwnerListQuery {
  email?: string;
  after?: string;
  limit?: number;
  archived?: boolean;
}

export interface OwnerPage {
  results: PublicOwner[];
  paging?: { next: { after: string; link: string } };
}

export const defaultOwnerPageSize = 100;

/** A page of the account's owners in id order; `after` is the last id of the page before. */
export async function listOwners(
  hubId: number,
  query: OwnerListQuery,
  linkFor: (after: string) => string,
): Promise<OwnerPage> {
  const limit = query.limit ?? defaultOwnerPageSize;
  const page = await owners.listOwnerPage(hubId, {
    ...(query.after === undefined ? {} : { afterOwnerId: Number(query.after) }),
    limit,
    isArchived: query.archived ?? false,
    ...(query.email === undefined ? {} : { email: query.email.trim().toLowerCase() }),
  });
  const last = page.owners.at(-1);
  const results = page.owners.map(publicOwnerOf);
  if (!page.hasMore || !last) return { results };
  const after = String(last.ownerId);
  return { results, paging: { next: { after, link: linkFor(after) } } };
}

/** The same answer for an owner of another account as for one that exists nowhere. */
function ownerNotFound(id: string, idProperty: 'id' | 'userId'): NotFoundError {
  return new NotFoundError(`No owner with ${idProperty} ${id} exists`, { context: { ownerId: [id] } });
}

/** One owner by its id, or (`idProperty=userId`) by the id of its user. */
export async function getOwner(
  hubId: number,
  id: string,
  options: { idProperty?: 'id' | 'userId'; archived?: boolean },
): Promise<PublicOwner> {
  const idProperty = options.idProperty ?? 'id';
  const owner =
    idProperty === 'userId'
      ? await owners.findOwnerOfUser(hubId, Number(id))
      : await owners.findOwner(hubId, Number(id));
  if (!owner || owner.archived !== (options.archived ?? false)) throw ownerNotFound(id, idProperty);
  return publicOwnerOf(owner);
}

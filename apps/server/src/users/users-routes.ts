import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ROUTES } from '@sea/contract/paths';
import { NicknameQuerySchema, USER_MESSAGES, UserSchema, UserUpdateSchema } from '@sea/contract/users';
import { nicknameKeyOf, nicknameSkeletonOf } from '../db/nickname-key.ts';
import { users } from '../db/schema.ts';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { invalid, notFound } from '../errors.ts';
import { accountIdOf, findActiveUser } from '../plugins/auth.ts';
import { writeLimit } from '../plugins/rate-limit.ts';
import { withStoredImage } from '../storage/with-stored-image.ts';
import { readImageForm } from '../uploads/read-image-form.ts';
import { updateUser } from './update-user.ts';
import { nicknameLookAlike, nicknameTaken } from './user-errors.ts';
import { userView } from './user-view.ts';

const UPDATE_PART = 'userUpdateDTO';

/** `GET/PATCH /api/users` (the caller's profile) and the public nickname check. */
export async function usersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const bearer = { onRequest: app.authenticate, schema: { tags: ['users'], security: [{ bearer: [] }] } };

  app.get(
    ROUTES.users,
    {
      ...bearer,
      schema: {
        ...bearer.schema,
        summary: 'The caller: {id, nickname, email, profile_image_path, introduction}',
        response: { 200: envelopeSchema(UserSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const user = await findActiveUser(app.db, accountIdOf(request));
      if (user === null) throw notFound('user');
      return ok(userView(app.storage, user), '사용자 정보를 불러왔어요.', 'The user.');
    },
  );

  app.patch(
    ROUTES.users,
    {
      ...bearer,
      config: writeLimit(app, 'upload'),
      schema: {
        ...bearer.schema,
        summary: `Update the profile: multipart part ${UPDATE_PART} (absent fields kept, email null clears) and optional imagefile`,
        description:
          '`profileImage: null` in the JSON part removes the saved photo and deletes its file (the default ' +
          'avatar shows again); sent together with an `imagefile` it is a 400.',
        multipartBody: { jsonPart: UPDATE_PART, schema: UserUpdateSchema },
        response: {
          200: envelopeSchema(UserSchema),
          ...errorResponses(400, 401, 404, 409, 413, 415, 429),
        },
      },
    },
    async (request) => {
      const accountId = accountIdOf(request);
      if ((await findActiveUser(app.db, accountId)) === null) throw notFound('user');
      const form = await readImageForm(request, {
        jsonPart: UPDATE_PART,
        kind: 'avatar',
        schema: UserUpdateSchema,
      });
      if (form.json.profileImage === null && form.image !== undefined)
        throw invalid({ profileImage: USER_MESSAGES.photoRemovedWithFile });
      const { user, replacedImage } = await withStoredImage(
        app.storage,
        'avatar',
        form.image,
        (profileImage) =>
          updateUser(app.db, accountId, { ...form.json, ...(profileImage === null ? {} : { profileImage }) }),
      );
      if (replacedImage !== null) await app.storage.remove(replacedImage);
      return ok(userView(app.storage, user), '회원 정보를 수정했어요.', 'The user was updated.');
    },
  );

  app.get(
    ROUTES.checkNickname,
    {
      schema: {
        tags: ['users'],
        summary: '200 when the nickname is free, 409 when taken',
        querystring: NicknameQuerySchema,
        response: { 200: DoneSchema, ...errorResponses(400, 409) },
      },
    },
    async (request) => {
      // Free exactly when the unique index would take it (same skeleton, same condition: the index answers);
      // whether the taken one shows the same text says which answer the person gets.
      const asked = sql`${request.query.nickname}::text`;
      const [taken] = await app.db
        .select({ same: sql<boolean>`${users.nicknameKey} = ${nicknameKeyOf(asked)}` })
        .from(users)
        .where(
          and(
            eq(users.nicknameSkeleton, nicknameSkeletonOf(asked)),
            isNull(users.deletedAt),
            eq(users.nicknameClash, false),
          ),
        )
        .limit(1);
      if (taken !== undefined) throw taken.same ? nicknameTaken() : nicknameLookAlike();
      return done('사용할 수 있는 닉네임이에요.', 'The nickname is available.');
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ROUTES } from '@sea/contract/paths';
import { SignupQuerySchema, SignupSchema, SignupStatusSchema, UserSchema } from '@sea/contract/users';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { notFound } from '../errors.ts';
import { accountIdOf, findActiveUser } from '../plugins/auth.ts';
import { writeLimit } from '../plugins/rate-limit.ts';
import { withStoredImage } from '../storage/with-stored-image.ts';
import { readImageForm } from '../uploads/read-image-form.ts';
import { signUp } from './sign-up.ts';
import { alreadyRegistered } from './user-errors.ts';
import { userView } from './user-view.ts';
import { withdraw } from './withdraw.ts';

const SIGNUP_PART = 'signupRequestDto';

/** `GET/POST/DELETE /api/auth/signup`: is the caller registered, sign up (with an avatar), withdraw. */
export async function signupRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const bearer = { onRequest: app.authenticate, schema: { tags: ['auth'], security: [{ bearer: [] }] } };

  app.get(
    ROUTES.signup,
    {
      ...bearer,
      schema: {
        ...bearer.schema,
        summary: '200 when the caller is registered, 404 when not; `answer=status`: 200 with `{registered}`',
        querystring: SignupQuerySchema,
        response: {
          200: DoneSchema.or(envelopeSchema(SignupStatusSchema)),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => {
      const user = await findActiveUser(app.db, accountIdOf(request));
      if (request.query.answer === 'status') {
        return ok(
          { registered: user !== null },
          user === null ? '아직 가입하지 않았어요.' : '가입된 사용자예요.',
          user === null ? 'Not registered yet.' : 'The user is registered.',
        );
      }
      if (user === null) throw notFound('user');
      return done('가입된 사용자예요.', 'The user is registered.');
    },
  );

  app.post(
    ROUTES.signup,
    {
      ...bearer,
      config: writeLimit(app, 'signUp'),
      schema: {
        ...bearer.schema,
        summary: `Sign up: multipart part ${SIGNUP_PART} (JSON {nickname, email}) and optional file part imagefile`,
        multipartBody: { jsonPart: SIGNUP_PART, schema: SignupSchema },
        response: { 200: envelopeSchema(UserSchema), ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request) => {
      const accountId = accountIdOf(request);
      // Answer a repeated sign-up before reading (and re-encoding) an upload; the insert below still decides.
      if ((await findActiveUser(app.db, accountId)) !== null) throw alreadyRegistered();
      const form = await readImageForm(request, {
        jsonPart: SIGNUP_PART,
        kind: 'avatar',
        schema: SignupSchema,
      });
      const { user, replacedImage } = await withStoredImage(
        app.storage,
        'avatar',
        form.image,
        (profileImage) =>
          signUp(app.db, accountId, { nickname: form.json.nickname, email: form.json.email, profileImage }),
      );
      if (replacedImage !== null) await app.storage.remove(replacedImage);
      return ok(userView(app.storage, user), '회원가입이 완료되었어요.', 'Signed up.');
    },
  );

  app.delete(
    ROUTES.signup,
    {
      ...bearer,
      schema: {
        ...bearer.schema,
        summary: 'Withdraw (soft delete); signing up again later works',
        response: { 200: DoneSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const userId = accountIdOf(request);
      const classIds = await withdraw(app.db, userId);
      await app.events.emit('userWithdrawn', { userId, classIds });
      return done('회원 탈퇴가 완료되었어요.', 'The account was withdrawn.');
    },
  );
}

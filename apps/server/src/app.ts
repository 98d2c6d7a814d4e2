import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { registerAttendance } from './attendance/register-attendance.ts';
import { authRoutes } from './auth/auth-routes.ts';
import { registerRefreshTokenSweep } from './auth/refresh-token-sweep.ts';
import { registerBoard } from './board/register-board.ts';
import { calendarRoutes } from './calendar/calendar-routes.ts';
import { chapterRoutes } from './chapters/chapter-routes.ts';
import { sessionBoard } from './board/session-board.ts';
import { categoryRoutes } from './categories/category-routes.ts';
import { DatabaseChatAccess } from './chat/chat-access.ts';
import { registerChat } from './chat/register-chat.ts';
import { registerClassroom } from './classroom/register-classroom.ts';
import { classRoutes } from './classes/class-routes.ts';
import { myLiveClassesRoutes } from './classes/my-live-classes-routes.ts';
import { suggestRoutes } from './classes/suggest-routes.ts';
import type { Config } from './config.ts';
import { dashboardRoutes } from './dashboard/dashboard-routes.ts';
import { openDatabase } from './db/open-database.ts';
import { seedDemo } from './demo/seed-demo.ts';
import { enrolmentRoutes } from './enrolments/enrolment-routes.ts';
import { instructorRoutes } from './instructors/instructor-routes.ts';
import { noteRoutes } from './notes/note-routes.ts';
import { registerNotifications } from './notifications/register-notifications.ts';
import { reviewRoutes } from './reviews/review-routes.ts';
import { healthRoutes } from './health/health-routes.ts';
import { metricsRoutes } from './health/metrics-routes.ts';
import { readyRoutes } from './health/ready-routes.ts';
import { registerJobs } from './jobs/register-jobs.ts';
import { liveRoutes } from './live/live-routes.ts';
import { registerMediaNodes } from './media-nodes/register-media-nodes.ts';
import { registerMediaPlacement } from './media-nodes/register-media-placement.ts';
import { LogDestination } from './log-destination.ts';
import { materialJobs, registerMaterials } from './materials/register-materials.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerContext } from './plugins/context.ts';
import { registerCors } from './plugins/cors.ts';
import { registerDocs } from './plugins/docs.ts';
import { registerErrors } from './plugins/errors.ts';
import { registerEvents } from './plugins/events.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerReadCache } from './plugins/read-cache.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStorage } from './plugins/storage.ts';
import { registerReplays, replayJobs } from './replays/register-replays.ts';
import { registerRoomBus } from './room-bus/register-room-bus.ts';
import { scheduleRoutes } from './schedules/schedule-routes.ts';
import { registerUploads } from './uploads/register-uploads.ts';
import { signupRoutes } from './users/signup-routes.ts';
import { usersRoutes } from './users/users-routes.ts';
import { registerWeb } from './web/web-app.ts';

export type BuildOptions = {
  logger?: boolean;
  /** Where log lines go (default: stdout through a {@link LogDestination}). */
  logDestination?: LogDestination;
};

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the nearest `hops` proxies". */
function fastifyTrustProxy(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * Builds the API server: every plugin and domain module, by name. Reads as the table of contents of the
 * server; the database is opened (and migrated) here and closed with the app.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, stream: options.logDestination ?? new LogDestination() },
    // Off by default: otherwise any caller could name its own address in X-Forwarded-For (and so dodge the
    // login rate limit). Behind a proxy, TRUST_PROXY says which one to believe.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { maxParamLength: 200 },
  });
  // Requests are validated by the contract's zod schemas; responses are built by typed code, so they are
  // written with plain JSON.stringify (response schemas only document them).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const database = await openDatabase(config.database);
  app.addHook('onClose', () => database.close());
  registerContext(app, config, database.db);
  // Lifecycle events (a session ended, a class deleted, an enrolment ended, a user withdrew): routes emit
  // after their write, and each module that acts on one subscribes in its own register function.
  registerEvents(app);

  // Cross-cutting plugins
  registerMetrics(app);
  registerErrors(app);
  registerJsonBody(app);
  registerSecurityHeaders(app, config);
  await registerCors(app, config.corsOrigins);
  await registerRateLimit(
    app,
    config.redisUrl
      ? { url: config.redisUrl, namespace: config.rateLimitNamespace ?? 'sea:rate-limit:' }
      : null,
  );
  await registerDocs(app);
  registerAuth(app, config.jwtSecret);
  registerRefreshTokenSweep(app);
  await registerReadCache(
    app,
    config.readCacheMs,
    config.redisUrl ? { url: config.redisUrl, channel: config.readCacheChannel ?? 'sea:read-cache' } : null,
  );
  // Every file the platform keeps (images, materials, replays, recordings): local folders or an object store
  await registerStorage(app, config);
  await registerUploads(app, config);
  if (config.demoData && (await seedDemo(app.db, app.storage))) app.log.info('demo data seeded');

  // Domain modules. Notices first: the others report to app.notifier.
  await registerNotifications(app, config.redisUrl);
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(categoryRoutes);
  await app.register(classRoutes);
  await app.register(dashboardRoutes);
  await app.register(myLiveClassesRoutes);
  await app.register(enrolmentRoutes);
  await app.register(scheduleRoutes);
  await app.register(calendarRoutes);
  await app.register(reviewRoutes);
  await app.register(instructorRoutes);
  await app.register(suggestRoutes);
  registerMediaPlacement(app);
  await app.register(liveRoutes);
  // Live sessions are recorded from the media nodes' reports, which announce each one that ends
  // (sessionEnded): its stays close. The live state is reconciled with the nodes when the server is ready.
  await registerAttendance(app);
  await registerMediaNodes(app);
  await app.register(readyRoutes);
  await app.register(authRoutes);
  await app.register(signupRoutes);
  await app.register(usersRoutes);
  // The room bus: the STOMP endpoint at /ws, its topics and their fan-out. Who may use it is the chat's rule
  // of class membership; the chat and the classroom then register their SEND destinations on it.
  const roomAccess = new DatabaseChatAccess({
    db: app.db,
    verifyAccess: (token) => app.tokens.verifyAccess(token),
    membershipTtlMs: config.chat?.membershipTtlMs,
  });
  await registerRoomBus(app, roomAccess, config.chat);
  await registerChat(app);
  // Questions, polls, reactions and raised hands in the live room, and their routes
  await registerClassroom(app);
  // Replays: queued as their sessions end, listed and served. They subscribe after the media nodes and the
  // chat, so that an ended membership reaches those at once and the recordings' removal follows.
  await registerReplays(app);
  // The teacher's materials (slides and documents turned into pages) for the board
  await registerMaterials(app);
  // The board of the live room: the material's page on stage and the teacher's ink on it
  await registerBoard(app);
  // One list of a replay's chapters (the board's pages and the teacher's marks), written into its files too;
  // and each member's private notes pinned to moments of a session
  await app.register(chapterRoutes);
  await app.register(noteRoutes);

  // Background jobs from the database queue (replays, materials' conversions); JOB_CONCURRENCY=0 runs none here.
  // A replay's MP4 shows the session's board, read by the board's module.
  const replaysWithBoard = (server: FastifyInstance) =>
    replayJobs(server, (sessionId, toOffset) => sessionBoard(server.db, sessionId, toOffset));
  await registerJobs(app, replaysWithBoard, materialJobs);

  // The web app and the not-found answer come last
  await registerWeb(app, config.webDist);
  return app;
}

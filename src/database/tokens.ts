/** The connection string the app runs on (server or embedded), for clients other than TypeORM (pg-boss). */
export const DATABASE_URL = Symbol('DATABASE_URL');

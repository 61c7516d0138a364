import { testDatabaseUrlProblem } from './support/test-db';

// The e2e global setup refuses a TEST_DATABASE_URL whose database does not say it is for tests.
describe('TEST_DATABASE_URL guard', () => {
  it('accepts a database whose name says test', () => {
    expect(testDatabaseUrlProblem('postgres://postgres@127.0.0.1:5432/test')).toBeNull();
    expect(testDatabaseUrlProblem('postgres://ci:secret@db.internal:5432/app_test')).toBeNull();
    expect(testDatabaseUrlProblem('postgresql://u@localhost/Test_Runs?sslmode=disable')).toBeNull();
  });

  it('refuses any other database, without echoing credentials', () => {
    const problem = testDatabaseUrlProblem('postgres://admin:hunter2@prod.example:5432/callcenter');
    expect(problem).toContain('"callcenter"');
    expect(problem).not.toContain('hunter2');
    expect(testDatabaseUrlProblem('postgres://postgres@127.0.0.1:5432/')).toContain('"(none)"');
    expect(testDatabaseUrlProblem('postgres://postgres@127.0.0.1:5432/postgres')).toContain('"postgres"');
  });

  it('refuses what is not a URL', () => {
    expect(testDatabaseUrlProblem('host=127.0.0.1 dbname=test')).toBe('TEST_DATABASE_URL is not a postgres:// URL');
  });
});

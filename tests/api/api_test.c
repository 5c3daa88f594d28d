/* The C API from C: open the sample database, ask, read the answer; errors as codes and messages. Written in C on
 * purpose (compiled as C11) so that the header is proven usable from C. Exits nonzero at the first failed check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "plainsql/plainsql.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

/* Whether `needle` (lower case) occurs in `haystack`, ignoring case. */
static int contains_lower(const char* haystack, const char* needle) {
  char buf[4096];
  size_t i = 0;
  for (; haystack[i] != '\0' && i + 1 < sizeof buf; i++) {
    buf[i] = (char)((haystack[i] >= 'A' && haystack[i] <= 'Z') ? haystack[i] - 'A' + 'a' : haystack[i]);
  }
  buf[i] = '\0';
  return strstr(buf, needle) != NULL;
}

static void test_version(void) { CHECK(strlen(plainsql_version()) > 0); }

static void test_missing_database(void) {
  plainsql_db* db = NULL;
  plainsql_params p = plainsql_default_params();
  p.use_cache = 0;
  plainsql_status s = plainsql_open("/nonexistent/dir/none.db", &p, &db);
  CHECK(s != PLAINSQL_OK);
  CHECK(db != NULL);
  CHECK(strlen(plainsql_errmsg(db)) > 0);
  plainsql_answer* a = NULL;
  CHECK(plainsql_ask(db, "How many orders?", &a) == PLAINSQL_INVALID_ARGUMENT);
  CHECK(a == NULL);
  plainsql_close(db);
}

static void test_bad_arguments(void) {
  CHECK(plainsql_open("x.db", NULL, NULL) == PLAINSQL_INVALID_ARGUMENT);
  CHECK(plainsql_ask(NULL, "q", NULL) == PLAINSQL_INVALID_ARGUMENT);
  CHECK(strlen(plainsql_errmsg(NULL)) > 0);
  plainsql_close(NULL);
  plainsql_answer_free(NULL);
  CHECK(plainsql_answer_sql(NULL) == NULL);
  CHECK(plainsql_answer_row_count(NULL) == 0);
}

static void test_ask(const char* sample_db) {
  plainsql_params p = plainsql_default_params();
  p.llm_url = "none"; /* the built-in translator, whatever the environment says */
  p.use_cache = 0;
  p.max_rows = 100;
  plainsql_db* db = NULL;
  plainsql_status s = plainsql_open(sample_db, &p, &db);
  if (s != PLAINSQL_OK) fprintf(stderr, "open: %s\n", plainsql_errmsg(db));
  CHECK(s == PLAINSQL_OK);
  if (s != PLAINSQL_OK) {
    plainsql_close(db);
    return;
  }

  plainsql_answer* a = NULL;
  s = plainsql_ask(db, "How many plants are there?", &a);
  if (s != PLAINSQL_OK) fprintf(stderr, "ask: %s\n", plainsql_errmsg(db));
  CHECK(s == PLAINSQL_OK);
  if (s == PLAINSQL_OK) {
    CHECK(contains_lower(plainsql_answer_sql(a), "count(") && contains_lower(plainsql_answer_sql(a), "plant"));
    CHECK(plainsql_answer_column_count(a) == 1);
    CHECK(plainsql_answer_row_count(a) == 1);
    CHECK(plainsql_answer_type(a, 0, 0) == PLAINSQL_INTEGER);
    CHECK(plainsql_answer_int64(a, 0, 0) > 0);
    CHECK(plainsql_answer_double(a, 0, 0) == (double)plainsql_answer_int64(a, 0, 0));
    CHECK(plainsql_answer_text(a, 0, 0) != NULL);
    CHECK(plainsql_answer_text(a, 1, 0) == NULL); /* out of range */
    CHECK(plainsql_answer_column_name(a, 1) == NULL);
    CHECK(strstr(plainsql_answer_json(a), "\"sql\"") != NULL);
    CHECK(plainsql_answer_truncated(a) == 0);
    CHECK(strcmp(plainsql_errmsg(db), "") == 0);
  }
  plainsql_answer_free(a);

  /* An empty or blank question: refused as such, not answered with a guess. */
  a = NULL;
  s = plainsql_ask(db, " \n ", &a);
  CHECK(s == PLAINSQL_INVALID_ARGUMENT);
  CHECK(a == NULL);
  CHECK(strstr(plainsql_errmsg(db), "empty") != NULL);

  /* A question nothing in the schema links to: an error with a message, not a guess. */
  a = NULL;
  s = plainsql_ask(db, "zyxxy quorble flumph?", &a);
  CHECK(s == PLAINSQL_NOT_FOUND);
  CHECK(a == NULL);
  CHECK(strlen(plainsql_errmsg(db)) > 0);
  plainsql_close(db);
}

/* The answer (one integer) to `question` on `path` with key inference `infer_keys` (NULL: the default); -1 when it
 * fails, -2 when the database does not open (its message in `error`). */
static long long ask_count(const char* path, const char* infer_keys, const char* question, char* error, size_t n) {
  plainsql_params p = plainsql_default_params();
  p.llm_url = "none";
  p.use_cache = 0;
  p.infer_keys = infer_keys;
  plainsql_db* db = NULL;
  long long got = -1;
  if (plainsql_open(path, &p, &db) != PLAINSQL_OK) {
    snprintf(error, n, "%s", plainsql_errmsg(db));
    plainsql_close(db);
    return -2;
  }
  plainsql_answer* a = NULL;
  if (plainsql_ask(db, question, &a) == PLAINSQL_OK && plainsql_answer_row_count(a) == 1) {
    got = (long long)plainsql_answer_int64(a, 0, 0);
  }
  plainsql_answer_free(a);
  plainsql_close(db);
  return got;
}

/* The keys a database does not declare are inferred by default (as `plainsql ask` infers them); "none" turns it off,
 * a name the library does not know is an error. */
static void test_infer_keys(const char* dir) {
  char path[1024];
  char error[512] = "";
  sqlite3* w = NULL;
  snprintf(path, sizeof path, "%s/api_test_keyless.db", dir);
  remove(path);
  CHECK(sqlite3_open(path, &w) == SQLITE_OK);
  CHECK(sqlite3_exec(w,
                     "CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, customer_name TEXT);"
                     "CREATE TABLE account (account_id INTEGER PRIMARY KEY, customer_id INTEGER, account_name TEXT);"
                     "INSERT INTO customer VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy');"
                     "INSERT INTO account VALUES (10, 1, 'main'), (11, 1, 'savings'), (12, 3, 'main');",
                     NULL, NULL, NULL) == SQLITE_OK);
  sqlite3_close(w);
  const char* q = "How many customers do not have an account?";
  CHECK(ask_count(path, NULL, q, error, sizeof error) == 1);
  CHECK(ask_count(path, "isolated", q, error, sizeof error) == 1);
  CHECK(ask_count(path, "none", q, error, sizeof error) == 3);
  CHECK(ask_count(path, "sometimes", q, error, sizeof error) == -2);
  CHECK(contains_lower(error, "key inference takes"));
  remove(path);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: api_test SAMPLE_DB WORK_DIR\n");
    return 2;
  }
  test_version();
  test_bad_arguments();
  test_missing_database();
  test_ask(argv[1]);
  test_infer_keys(argv[2]);
  if (failures > 0) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}

/* plainsql's small stable C API: open a database, ask it a question in plain language, read the answer, free it.
 * The PostgreSQL extension and language bindings use only this header. No C++ exception crosses it: every function
 * that can fail returns a plainsql_status and leaves a message readable with plainsql_errmsg().
 *
 *   plainsql_params p = plainsql_default_params();
 *   plainsql_db* db = NULL;
 *   if (plainsql_open("sqlite:shop.db", &p, &db) != PLAINSQL_OK) { puts(plainsql_errmsg(db)); }
 *   plainsql_answer* a = NULL;
 *   if (plainsql_ask(db, "How many orders are there?", &a) == PLAINSQL_OK) puts(plainsql_answer_sql(a));
 *   plainsql_answer_free(a);
 *   plainsql_close(db);
 *
 * Handles are not thread-safe: use one plainsql_db per thread. Strings are UTF-8 and owned by the handle they come
 * from; they stay valid until that handle is freed (or, for plainsql_errmsg, until the next call on the handle). */
#ifndef PLAINSQL_PLAINSQL_H
#define PLAINSQL_PLAINSQL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes; the same numbers as the plainsql program's exit codes (docs/CLI.md). */
typedef enum plainsql_status {
  PLAINSQL_OK = 0,
  PLAINSQL_ERROR = 1,            /* a failure no other code describes (also: out of memory) */
  PLAINSQL_INVALID_ARGUMENT = 2, /* bad input from the caller: a NULL handle, a bad URL or parameter */
  PLAINSQL_NOT_FOUND = 3,        /* a named file or database does not exist, or no candidate query could run */
  PLAINSQL_CONNECTION = 4,       /* the database could not be opened or reached */
  PLAINSQL_NOT_READ_ONLY = 5,    /* a statement was refused: not a single read-only query */
  PLAINSQL_SQL = 6,              /* the database rejected the statement */
  PLAINSQL_TIMEOUT = 7,          /* a time limit passed */
  PLAINSQL_IO = 8,               /* a local file could not be read or written */
  PLAINSQL_FORMAT = 9,           /* a file's content is not in the expected format */
  PLAINSQL_NOT_ALLOWED = 10,     /* a query reads a relation or calls a function the access policy does not allow */
  PLAINSQL_RESOURCE_LIMIT = 11,  /* a query was stopped at a ceiling (value, result or memory size) */
  PLAINSQL_INTERNAL = 70         /* a bug */
} plainsql_status;

/* The kinds of a value in an answer's rows. Booleans are integers 0/1. */
typedef enum plainsql_type {
  PLAINSQL_NULL = 0,
  PLAINSQL_INTEGER = 1,
  PLAINSQL_REAL = 2,
  PLAINSQL_TEXT = 3,
  PLAINSQL_BLOB = 4
} plainsql_type;

typedef struct plainsql_db plainsql_db;         /* an open database and what plainsql knows of its schema */
typedef struct plainsql_answer plainsql_answer; /* one question's SQL, result and trace */

/* How plainsql_open and plainsql_ask behave. Start from plainsql_default_params() and change what you need;
 * NULL strings mean "the default". */
typedef struct plainsql_params {
  const char* config_file; /* a plainsql.toml; NULL: ./plainsql.toml or ~/.config/plainsql/plainsql.toml if present */
  const char* llm_url;     /* OpenAI-compatible base URL; NULL: the configuration's; "none": the built-in translator */
  const char* model;       /* model name; NULL: the configuration's */
  int32_t timeout_ms;      /* per query; 0: the configuration's (30000 by default) */
  int32_t max_rows;        /* rows returned at most; 0: the configuration's (1000 by default) */
  int32_t use_cache;       /* nonzero: reuse a cached schema snapshot when the database has not changed */
  const char* api_key;     /* the LLM's key; NULL: the environment's (PLAINSQL_LLM_API_KEY, OPENAI_API_KEY) */
  const char* examples_store; /* an example store (file or postgresql:// URL); NULL: the configuration's, "": none */
  const char* infer_keys;     /* keys the database does not declare, inferred from names and sampled values: NULL:
                               * "isolated" (those of tables no declared foreign key touches), "add", "replace" or
                               * "none" */
} plainsql_params;

/* The library's version, e.g. "0.1.0". */
const char* plainsql_version(void);

/* Defaults: built-in translator unless the configuration names a model, schema cache on. */
plainsql_params plainsql_default_params(void);

/* Opens `url` (a SQLite file, sqlite:PATH, or postgresql://...) read-only and reads its schema. On failure *out may
 * still hold a handle carrying the message: read it with plainsql_errmsg(*out), then plainsql_close(*out).
 * `params` may be NULL (the defaults). */
plainsql_status plainsql_open(const char* url, const plainsql_params* params, plainsql_db** out);

/* A database reached through the caller's own query function instead of a URL: the PostgreSQL extension runs
 * plainsql's queries with SPI inside the server. plainsql speaks PostgreSQL's SQL to it, and checks every query it
 * passes (a single read-only query; generated ones over the schema's own relations and allowed functions); the
 * caller runs it read-only for at most timeout_ms and hands its result to `rows`: the columns first, then every value
 * row by row, as PostgreSQL's text output (NULL as a null pointer). */
typedef struct plainsql_rows plainsql_rows;
void plainsql_rows_column(plainsql_rows* rows, const char* name, uint32_t type_oid);
/* Nonzero: go on; 0: stop reading (the row cap is reached, or a ceiling passed; plainsql reports which). */
int plainsql_rows_value(plainsql_rows* rows, const char* text, size_t length);

/* What plainsql_source.query returns. */
enum { PLAINSQL_SOURCE_OK = 0, PLAINSQL_SOURCE_FAILED = 1, PLAINSQL_SOURCE_TIMED_OUT = 2 };

typedef struct plainsql_source {
  void* context;
  const char* identity;      /* the database's stable identity, for caches (copied) */
  const char* database_name; /* (copied) */
  /* Runs one query; on PLAINSQL_SOURCE_FAILED writes the SQLSTATE (5 characters) and a message. Parameters are
   * written into the text as quoted literals: standard_conforming_strings must be on. */
  int (*query)(void* context, const char* sql, int32_t timeout_ms, plainsql_rows* rows, char sqlstate[6], char* message,
               size_t message_size);
  /* Optional, for plainsql_apply_views only: runs one statement that may write (DDL of plainsql's views, or a query
   * of the catalog) in the caller's transaction, its rows (if any) into `rows`; returns as `query`. NULL: the handle
   * cannot deploy views. */
  int (*write)(void* context, const char* sql, plainsql_rows* rows, char sqlstate[6], char* message,
               size_t message_size);
} plainsql_source;

/* Opens a database over `source` (whose functions must stay valid while the handle lives) and reads its schema. */
plainsql_status plainsql_open_source(const plainsql_source* source, const plainsql_params* params, plainsql_db** out);

/* The folder of plainsql's data files (the naturalness model, word lists, prompts) for the whole process, for a host
 * that installed them elsewhere than beside a plainsql program; NULL or "" forgets it. Call before plainsql_open. */
void plainsql_set_data_dir(const char* dir);

/* `check(context)` returns nonzero when plainsql must stop waiting (for an LLM's reply or a retry): the call then
 * fails with PLAINSQL_TIMEOUT. Process-wide; may be called from plainsql's threads. NULL removes it. */
void plainsql_set_interrupt_check(int (*check)(void* context), void* context);

/* Closes the database and frees the handle; NULL is a no-op. Answers taken from it stay valid. */
void plainsql_close(plainsql_db* db);

/* The message of the last failed call on `db` ("" after a success); for a NULL handle, a fixed message. */
const char* plainsql_errmsg(const plainsql_db* db);

/* Answers `question`: SQL generated, checked (a single read-only query over the schema's own relations and allowed
 * functions), run read-only with the limits, the answer in *out. Free it with plainsql_answer_free. An empty or blank
 * question is PLAINSQL_INVALID_ARGUMENT. */
plainsql_status plainsql_ask(plainsql_db* db, const char* question, plainsql_answer** out);

/* plainsql_ask with `candidates` queries from each generator voted on (1 to 20; 0: the configuration's). */
plainsql_status plainsql_ask_k(plainsql_db* db, const char* question, int32_t candidates, plainsql_answer** out);

/* The naturalness profile of the handle's schema as JSON, as `plainsql profile --format json` prints it; `schema`
 * (PostgreSQL's namespace) NULL or "": every schema plainsql reads. *json stays valid until the next call on db. */
plainsql_status plainsql_profile(plainsql_db* db, const char* schema, const char** json);

/* The statements that create natural views of the handle's schema at `level` ("N1", "N2" or "N3"; `extended`:
 * with the columns reached through each foreign key), with names plainsql gives offline (as `plainsql rename --llm
 * none`). *ddl stays valid until the next call on db. */
plainsql_status plainsql_natural_views(plainsql_db* db, const char* level, int extended, const char** ddl);

/* Creates those views through the source's `write` (replacing plainsql's earlier ones; a relation of another owner in
 * their schema is refused); *summary says what was done, valid until the next call on db. */
plainsql_status plainsql_apply_views(plainsql_db* db, const char* level, int extended, const char** summary);

/* The answer's SQL, as executed (native names). */
const char* plainsql_answer_sql(const plainsql_answer* answer);
/* {"sql", "columns", "rows", "truncated", "trace"} as JSON text, as `plainsql ask --format json` prints it. */
const char* plainsql_answer_json(const plainsql_answer* answer);
size_t plainsql_answer_column_count(const plainsql_answer* answer);
const char* plainsql_answer_column_name(const plainsql_answer* answer, size_t column);
size_t plainsql_answer_row_count(const plainsql_answer* answer);
/* Nonzero when more rows existed than max_rows allowed. */
int plainsql_answer_truncated(const plainsql_answer* answer);
plainsql_type plainsql_answer_type(const plainsql_answer* answer, size_t row, size_t column);
/* A value as text (NULL as NULL, reals in shortest round-trip form, blobs as \x<hex>); NULL when out of range. */
const char* plainsql_answer_text(const plainsql_answer* answer, size_t row, size_t column);
int64_t plainsql_answer_int64(const plainsql_answer* answer, size_t row, size_t column);
double plainsql_answer_double(const plainsql_answer* answer, size_t row, size_t column);
void plainsql_answer_free(plainsql_answer* answer);

#ifdef __cplusplus
}
#endif

#endif /* PLAINSQL_PLAINSQL_H */

/*
 * plainsql inside PostgreSQL: the library's C API (include/plainsql/plainsql.h) over SPI.
 *
 * The library reaches the database through run_query below: every query it runs (its catalog reads and the checked
 * candidate queries) runs through a cursor in an internal subtransaction that is always rolled back, with
 * transaction_read_only on, under a timer of its own, with the caller's privileges. A PostgreSQL error inside it is
 * caught there and handed to the library as a failure (no longjmp crosses the library's C++ frames); a cancel or a
 * statement timeout is remembered and raised again once the library has returned. The library's own waits (an LLM's
 * reply) poll interrupt_requested every 50 ms.
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timeout.h"

#include "plainsql/plainsql.h"

PG_MODULE_MAGIC;

void _PG_init(void);

/* Settings (docs/PG_EXTENSION.md). */
static char* llm_url = NULL;
static char* llm_model = NULL;
static int candidates = 1;
static int timeout_ms = 30000;
static int max_rows = 1000;
static char* data_dir = NULL;
static char* llm_api_key_file = NULL;
static char* examples_store = NULL;
/* plainsql.infer_keys: the library's names for its key inference modes (plainsql_params.infer_keys). */
static const struct config_enum_entry infer_keys_options[] = {
    {"isolated", 0, false}, {"add", 1, false}, {"replace", 2, false}, {"none", 3, false}, {NULL, 0, false}};
static int infer_keys = 0;

/* The open handle, kept across calls while its key (database, settings) holds and no relation changed. */
static plainsql_db* cached_db = NULL;
static char* cached_key = NULL; /* malloc'd */
static bool schema_changed = true;

static TimeoutId query_timeout_id;
static volatile sig_atomic_t query_timed_out = false;
/* A cancel or statement timeout met inside a query the library ran: raised again when the library returns. */
static volatile sig_atomic_t cancel_seen = false;

static void query_timeout_handler(void) {
  query_timed_out = true;
  QueryCancelPending = true;
  InterruptPending = true;
  SetLatch(MyLatch);
}

static void relation_changed(Datum arg, Oid relid) { schema_changed = true; }

static int interrupt_requested(void* context) { return cancel_seen || QueryCancelPending || ProcDiePending; }

static void copy_message(char* out, size_t size, const char* text) { strlcpy(out, text != NULL ? text : "", size); }

/* In a PG_CATCH block around an internal subtransaction: the error copied out (its SQLSTATE and message for the
 * library), the error state cleared, the subtransaction rolled back and the caller's memory context and resource owner
 * restored. A cancel is remembered to be raised again (unless `cancel_counts` is false: our own timer's). */
static void abort_subtransaction(MemoryContext oldcontext, ResourceOwner oldowner, bool cancel_counts, char sqlstate[6],
                                 char* message, size_t message_size) {
  ErrorData* edata;

  MemoryContextSwitchTo(oldcontext);
  edata = CopyErrorData();
  FlushErrorState();
  RollbackAndReleaseCurrentSubTransaction();
  MemoryContextSwitchTo(oldcontext);
  CurrentResourceOwner = oldowner;
  copy_message(sqlstate, 6, unpack_sql_state(edata->sqlerrcode));
  copy_message(message, message_size, edata->message);
  if (cancel_counts && edata->sqlerrcode == ERRCODE_QUERY_CANCELED) cancel_seen = true;
  FreeErrorData(edata);
}

/* Reads the open portal in batches into the library's sink until it has all rows or asks to stop. */
static void fetch_rows(Portal portal, plainsql_rows* rows) {
  bool first = true;
  bool go = true;

  while (go) {
    TupleDesc desc;
    uint64 r;

    SPI_cursor_fetch(portal, true, 256);
    desc = SPI_tuptable->tupdesc;
    if (first) {
      for (int c = 1; c <= desc->natts; c++) plainsql_rows_column(rows, SPI_fname(desc, c), SPI_gettypeid(desc, c));
      first = false;
    }
    if (SPI_processed == 0) break;
    for (r = 0; r < SPI_processed && go; r++) {
      for (int c = 1; c <= desc->natts && go; c++) {
        char* v = SPI_getvalue(SPI_tuptable->vals[r], desc, c);

        go = plainsql_rows_value(rows, v, v != NULL ? strlen(v) : 0) != 0;
        if (v != NULL) pfree(v);
      }
    }
    SPI_freetuptable(SPI_tuptable);
    CHECK_FOR_INTERRUPTS();
  }
}

/* The library's query function (plainsql_source.query). */
static int run_query(void* context, const char* sql, int32_t ms, plainsql_rows* rows, char sqlstate[6], char* message,
                     size_t message_size) {
  MemoryContext oldcontext = CurrentMemoryContext;
  ResourceOwner oldowner = CurrentResourceOwner;
  volatile int rc = PLAINSQL_SOURCE_OK;

  if (cancel_seen) {
    copy_message(sqlstate, 6, "57014");
    copy_message(message, message_size, "canceling statement due to user request");
    return PLAINSQL_SOURCE_FAILED;
  }
  query_timed_out = false;
  BeginInternalSubTransaction(NULL);
  MemoryContextSwitchTo(oldcontext);
  PG_TRY();
  {
    SPIPlanPtr plan;
    Portal portal;

    /* Local to the subtransaction, which is rolled back below: the caller's settings are untouched. */
    (void)set_config_option("transaction_read_only", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_LOCAL, true, 0,
                            false);
    (void)set_config_option("standard_conforming_strings", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_LOCAL, true, 0,
                            false);
    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "plainsql: SPI_connect failed");
    enable_timeout_after(query_timeout_id, ms > 0 ? ms : 1);
    plan = SPI_prepare(sql, 0, NULL);
    if (plan == NULL) elog(ERROR, "plainsql: could not prepare the query: %s", SPI_result_code_string(SPI_result));
    portal = SPI_cursor_open(NULL, plan, NULL, NULL, true);
    fetch_rows(portal, rows);
    SPI_cursor_close(portal);
    disable_timeout(query_timeout_id, false);
    /* The timer may have fired after the last row: that cancel is ours, not the caller's. */
    if (query_timed_out) QueryCancelPending = false;
    SPI_finish();
    RollbackAndReleaseCurrentSubTransaction();
    MemoryContextSwitchTo(oldcontext);
    CurrentResourceOwner = oldowner;
  }
  PG_CATCH();
  {
    disable_timeout(query_timeout_id, false);
    abort_subtransaction(oldcontext, oldowner, !query_timed_out, sqlstate, message, message_size);
    rc = query_timed_out ? PLAINSQL_SOURCE_TIMED_OUT : PLAINSQL_SOURCE_FAILED;
  }
  PG_END_TRY();
  return rc;
}

/* The library's write function (plainsql_source.write): one statement in a subtransaction that is kept (released)
 * when it succeeds, so that what it creates is part of the caller's transaction, and rolled back when it fails. */
static int run_write(void* context, const char* sql, plainsql_rows* rows, char sqlstate[6], char* message,
                     size_t message_size) {
  MemoryContext oldcontext = CurrentMemoryContext;
  ResourceOwner oldowner = CurrentResourceOwner;
  volatile int rc = PLAINSQL_SOURCE_OK;

  BeginInternalSubTransaction(NULL);
  MemoryContextSwitchTo(oldcontext);
  PG_TRY();
  {
    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "plainsql: SPI_connect failed");
    if (SPI_execute(sql, false, 0) < 0)
      elog(ERROR, "plainsql: the statement failed: %s", SPI_result_code_string(SPI_result));
    if (SPI_tuptable != NULL) {
      TupleDesc desc = SPI_tuptable->tupdesc;
      bool go = true;

      for (int c = 1; c <= desc->natts; c++) plainsql_rows_column(rows, SPI_fname(desc, c), SPI_gettypeid(desc, c));
      for (uint64 r = 0; r < SPI_processed && go; r++) {
        for (int c = 1; c <= desc->natts && go; c++) {
          char* v = SPI_getvalue(SPI_tuptable->vals[r], desc, c);

          go = plainsql_rows_value(rows, v, v != NULL ? strlen(v) : 0) != 0;
        }
      }
    }
    SPI_finish();
    ReleaseCurrentSubTransaction();
    MemoryContextSwitchTo(oldcontext);
    CurrentResourceOwner = oldowner;
  }
  PG_CATCH();
  {
    abort_subtransaction(oldcontext, oldowner, true, sqlstate, message, message_size);
    rc = PLAINSQL_SOURCE_FAILED;
  }
  PG_END_TRY();
  return rc;
}

/* Raises a cancel or statement timeout the library's queries met or its waits saw. */
static void raise_pending_cancel(void) {
  if (cancel_seen) {
    cancel_seen = false;
    ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("canceling statement due to user request")));
  }
  CHECK_FOR_INTERRUPTS();
}

/* The API key read from plainsql.llm_api_key_file (palloc'd; NULL when none is set). A file, not a setting holding the
 * key: the server logs a setting's new value when its configuration is reloaded. Its text stays out of messages. */
static char* read_api_key(void) {
  FILE* f;
  StringInfoData buf;
  int c;

  if (llm_api_key_file == NULL || llm_api_key_file[0] == '\0') return NULL;
  f = AllocateFile(llm_api_key_file, "r");
  if (f == NULL)
    ereport(ERROR, (errcode_for_file_access(),
                    errmsg("plainsql: cannot read plainsql.llm_api_key_file \"%s\": %m", llm_api_key_file)));
  initStringInfo(&buf);
  while ((c = fgetc(f)) != EOF && buf.len < 4096) appendStringInfoChar(&buf, (char)c);
  FreeFile(f);
  while (buf.len > 0 &&
         (buf.data[buf.len - 1] == '\n' || buf.data[buf.len - 1] == '\r' || buf.data[buf.len - 1] == ' '))
    buf.data[--buf.len] = '\0';
  return buf.data;
}

/* Frees a key read by read_api_key, its bytes overwritten first. */
static void forget_key(char* key) {
  if (key == NULL) return;
  memset(key, 0, strlen(key));
  pfree(key);
}

/* What the handle depends on; the key enters it as a hash only. */
static char* handle_key(const char* api_key) {
  const char* key = api_key ? api_key : "";
  return psprintf("%u|%s|%s|%d|%d|%s|%s|%d|%08x", MyDatabaseId, llm_url ? llm_url : "", llm_model ? llm_model : "",
                  timeout_ms, max_rows, data_dir ? data_dir : "", examples_store ? examples_store : "", infer_keys,
                  hash_bytes((const unsigned char*)key, (int)strlen(key)));
}

static void set_data_dir(void) {
  char share[MAXPGPATH];
  char* dir;

  if (data_dir != NULL && data_dir[0] != '\0') {
    plainsql_set_data_dir(data_dir);
    return;
  }
  get_share_path(my_exec_path, share);
  dir = psprintf("%s/plainsql", share);
  plainsql_set_data_dir(dir);
  pfree(dir);
}

/* The handle for this database and these settings, opened (reading the schema through SPI) when needed. */
static plainsql_db* get_db(void) {
  char* api_key = read_api_key();
  char* key = handle_key(api_key);
  plainsql_params params = plainsql_default_params();
  plainsql_source source;
  plainsql_status status;
  char* identity;
  char* dbname;

  if (cached_db != NULL && !schema_changed && cached_key != NULL && strcmp(cached_key, key) == 0) {
    forget_key(api_key);
    pfree(key);
    return cached_db;
  }
  /* The library's message names the program's options; here the settings are what a user changes. */
  if (llm_url != NULL && llm_url[0] != '\0' && (llm_model == NULL || llm_model[0] == '\0') &&
      getenv("PLAINSQL_LLM_MODEL") == NULL) {
    forget_key(api_key);
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("plainsql: plainsql.llm_url is set but plainsql.llm_model is empty"),
                    errhint("SET plainsql.llm_model = 'NAME', the model's name at %s.", llm_url)));
  }
  plainsql_close(cached_db);
  cached_db = NULL;
  free(cached_key);
  cached_key = NULL;
  set_data_dir();

  dbname = get_database_name(MyDatabaseId);
  identity = psprintf("postgresql-extension:%u/%s", MyDatabaseId, dbname ? dbname : "");
  memset(&source, 0, sizeof source);
  source.identity = identity;
  source.database_name = dbname ? dbname : "";
  source.query = run_query;
  source.write = run_write;
  params.llm_url = (llm_url != NULL && llm_url[0] != '\0') ? llm_url : "none";
  params.model = (llm_model != NULL && llm_model[0] != '\0') ? llm_model : NULL;
  params.timeout_ms = timeout_ms;
  params.max_rows = max_rows;
  params.use_cache = 0;
  params.api_key = (api_key != NULL && api_key[0] != '\0') ? api_key : NULL;
  params.examples_store = examples_store != NULL ? examples_store : "";
  params.infer_keys = infer_keys_options[infer_keys].name;
  /* Relations that change while the schema is read make the handle stale at once; read it again next call. */
  schema_changed = false;
  status = plainsql_open_source(&source, &params, &cached_db);
  forget_key(api_key);
  pfree(identity);
  raise_pending_cancel();
  if (status != PLAINSQL_OK) {
    char* msg = pstrdup(plainsql_errmsg(cached_db));

    plainsql_close(cached_db);
    cached_db = NULL;
    pfree(key);
    ereport(ERROR, (errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION), errmsg("plainsql: %s", msg)));
  }
  cached_key = strdup(key);
  pfree(key);
  return cached_db;
}

/* Raises the handle's last error (a cancel the library met first). */
static void raise_failure(plainsql_db* db, plainsql_status status) {
  char* msg = pstrdup(plainsql_errmsg(db));

  raise_pending_cancel();
  ereport(ERROR, (errcode(status == PLAINSQL_TIMEOUT            ? ERRCODE_QUERY_CANCELED
                          : status == PLAINSQL_NOT_FOUND        ? ERRCODE_NO_DATA_FOUND
                          : status == PLAINSQL_INVALID_ARGUMENT ? ERRCODE_INVALID_PARAMETER_VALUE
                                                                : ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
                  errmsg("plainsql: %s", msg)));
}

/* The question's answer through the pipeline with k candidates; an error is raised, never returned. */
static plainsql_answer* answer_question(text* question, int k) {
  char* q = text_to_cstring(question);
  plainsql_db* db;
  plainsql_answer* answer = NULL;
  plainsql_status status;

  if (q[0] == '\0')
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("plainsql: the question is empty")));
  if (k < 1 || k > 20)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("plainsql: k must be from 1 to 20, not %d", k)));
  db = get_db();
  status = plainsql_ask_k(db, q, k, &answer);
  pfree(q);
  if (status != PLAINSQL_OK) raise_failure(db, status);
  if (cancel_seen || QueryCancelPending) {
    plainsql_answer_free(answer);
    raise_pending_cancel();
  }
  return answer;
}

/* Row `r` of the answer as a JSON object: numbers as numbers (NaN and infinities as strings), NULL as null. */
static Datum row_as_jsonb(const plainsql_answer* a, size_t r) {
  StringInfoData buf;
  size_t n = plainsql_answer_column_count(a);

  initStringInfo(&buf);
  appendStringInfoChar(&buf, '{');
  for (size_t c = 0; c < n; c++) {
    const char* v = plainsql_answer_text(a, r, c);
    plainsql_type t = plainsql_answer_type(a, r, c);

    if (c > 0) appendStringInfoChar(&buf, ',');
    escape_json(&buf, plainsql_answer_column_name(a, c));
    appendStringInfoChar(&buf, ':');
    if (t == PLAINSQL_NULL || v == NULL)
      appendStringInfoString(&buf, "null");
    else if (t == PLAINSQL_INTEGER || (t == PLAINSQL_REAL && strpbrk(v, "nN") == NULL))
      appendStringInfoString(&buf, v);
    else
      escape_json(&buf, v);
  }
  appendStringInfoChar(&buf, '}');
  return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

PG_FUNCTION_INFO_V1(plainsql_pg_generate);
Datum plainsql_pg_generate(PG_FUNCTION_ARGS) {
  plainsql_answer* a = answer_question(PG_GETARG_TEXT_PP(0), PG_GETARG_INT32(1));
  text* sql = cstring_to_text(plainsql_answer_sql(a));

  plainsql_answer_free(a);
  PG_RETURN_TEXT_P(sql);
}

PG_FUNCTION_INFO_V1(plainsql_pg_ask);
Datum plainsql_pg_ask(PG_FUNCTION_ARGS) {
  ReturnSetInfo* rsinfo = (ReturnSetInfo*)fcinfo->resultinfo;
  plainsql_answer* a;
  size_t rows;

  InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
  a = answer_question(PG_GETARG_TEXT_PP(0), candidates);
  rows = plainsql_answer_row_count(a);
  PG_TRY();
  {
    for (size_t r = 0; r < rows; r++) {
      Datum value = row_as_jsonb(a, r);
      bool isnull = false;

      tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
    }
  }
  PG_FINALLY();
  { plainsql_answer_free(a); }
  PG_END_TRY();
  return (Datum)0;
}

PG_FUNCTION_INFO_V1(plainsql_pg_explain);
Datum plainsql_pg_explain(PG_FUNCTION_ARGS) {
  plainsql_answer* a = answer_question(PG_GETARG_TEXT_PP(0), candidates);
  char* json = pstrdup(plainsql_answer_json(a));

  plainsql_answer_free(a);
  PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
}

PG_FUNCTION_INFO_V1(plainsql_pg_profile);
Datum plainsql_pg_profile(PG_FUNCTION_ARGS) {
  char* schema = PG_ARGISNULL(0) ? NULL : NameStr(*PG_GETARG_NAME(0));
  plainsql_db* db = get_db();
  const char* json = NULL;
  plainsql_status status = plainsql_profile(db, schema, &json);

  if (status != PLAINSQL_OK) raise_failure(db, status);
  PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(pstrdup(json))));
}

/* natural_views and apply_views: the DDL, or what applying it did. */
static Datum views_call(FunctionCallInfo fcinfo, bool apply) {
  char* level = text_to_cstring(PG_GETARG_TEXT_PP(0));
  int extended = PG_GETARG_BOOL(1) ? 1 : 0;
  plainsql_db* db = get_db();
  const char* out = NULL;
  plainsql_status status =
      apply ? plainsql_apply_views(db, level, extended, &out) : plainsql_natural_views(db, level, extended, &out);

  if (status != PLAINSQL_OK) raise_failure(db, status);
  raise_pending_cancel();
  PG_RETURN_TEXT_P(cstring_to_text(out));
}

PG_FUNCTION_INFO_V1(plainsql_pg_natural_views);
Datum plainsql_pg_natural_views(PG_FUNCTION_ARGS) { return views_call(fcinfo, false); }

PG_FUNCTION_INFO_V1(plainsql_pg_apply_views);
Datum plainsql_pg_apply_views(PG_FUNCTION_ARGS) { return views_call(fcinfo, true); }

PG_FUNCTION_INFO_V1(plainsql_pg_version);
Datum plainsql_pg_version(PG_FUNCTION_ARGS) { PG_RETURN_TEXT_P(cstring_to_text(plainsql_version())); }

void _PG_init(void) {
  DefineCustomStringVariable(
      "plainsql.llm_url", "OpenAI-compatible base URL of the model plainsql asks; empty: the built-in translator.",
      "Only a superuser sets it: the server makes HTTP requests to it.", &llm_url, "", PGC_SUSET, 0, NULL, NULL, NULL);
  DefineCustomStringVariable("plainsql.llm_model", "The model's name at plainsql.llm_url.", NULL, &llm_model, "",
                             PGC_USERSET, 0, NULL, NULL, NULL);
  DefineCustomIntVariable("plainsql.candidates",
                          "Candidate queries per generator voted on by plainsql.ask and plainsql.explain.", NULL,
                          &candidates, 1, 1, 20, PGC_USERSET, 0, NULL, NULL, NULL);
  DefineCustomIntVariable("plainsql.timeout_ms", "Time limit of each query plainsql runs.", NULL, &timeout_ms, 30000, 1,
                          INT_MAX, PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
  DefineCustomIntVariable("plainsql.max_rows", "Rows an answer holds at most.", NULL, &max_rows, 1000, 1, INT_MAX,
                          PGC_USERSET, 0, NULL, NULL, NULL);
  DefineCustomStringVariable("plainsql.data_dir",
                             "Folder of plainsql's data files; empty: SHAREDIR/plainsql, where the install puts them.",
                             NULL, &data_dir, "", PGC_SUSET, 0, NULL, NULL, NULL);
  DefineCustomStringVariable(
      "plainsql.llm_api_key_file",
      "A file holding the model's API key (readable by the server's user only); empty: the server's environment "
      "(PLAINSQL_LLM_API_KEY, OPENAI_API_KEY).",
      "Only a superuser sets or reads it.", &llm_api_key_file, "", PGC_SUSET, GUC_SUPERUSER_ONLY, NULL, NULL, NULL);
  DefineCustomStringVariable("plainsql.examples_store",
                             "An example store (a file on the server, or a postgresql:// URL) for few-shot examples; "
                             "empty: none.",
                             "Only a superuser sets it: the server reads the file.", &examples_store, "", PGC_SUSET, 0,
                             NULL, NULL, NULL);
  DefineCustomEnumVariable("plainsql.infer_keys",
                           "Keys the database does not declare, inferred from names and sampled values: isolated "
                           "(those of tables no declared foreign key touches), add, replace or none.",
                           NULL, &infer_keys, 0, infer_keys_options, PGC_USERSET, 0, NULL, NULL, NULL);
  MarkGUCPrefixReserved("plainsql");
  query_timeout_id = RegisterTimeout(USER_TIMEOUT, query_timeout_handler);
  CacheRegisterRelcacheCallback(relation_changed, (Datum)0);
  plainsql_set_interrupt_check(interrupt_requested, NULL);
}

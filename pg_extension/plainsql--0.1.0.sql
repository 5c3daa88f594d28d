-- plainsql 0.1.0: the functions of docs/PG_EXTENSION.md. Every function runs with the caller's privileges.
\echo Use "CREATE EXTENSION plainsql" to load this file. \quit

CREATE FUNCTION generate(question text, k int DEFAULT 1) RETURNS text
  AS 'MODULE_PATHNAME', 'plainsql_pg_generate' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION generate(text, int) IS
  'The SQL plainsql writes for a question, through the whole pipeline (k candidates per generator, voted on)';

CREATE FUNCTION ask(question text) RETURNS SETOF jsonb
  AS 'MODULE_PATHNAME', 'plainsql_pg_ask' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ask(text) IS 'The answer to a question: its rows as JSON objects, the query run read-only';

CREATE FUNCTION explain(question text) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'plainsql_pg_explain' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION explain(text) IS
  'The answer with its trace: SQL, columns, rows, candidates, votes and stage times (as plainsql ask --format json)';

CREATE FUNCTION version() RETURNS text
  AS 'MODULE_PATHNAME', 'plainsql_pg_version' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

GRANT USAGE ON SCHEMA @extschema@ TO PUBLIC;

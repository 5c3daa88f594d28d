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

CREATE FUNCTION profile(schema name DEFAULT NULL) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'plainsql_pg_profile' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION profile(name) IS
  'The naturalness of the schema''s names (Regular / Low / Least), its score and advice, as plainsql profile --format json';

CREATE FUNCTION natural_views(level text DEFAULT 'N1', extended boolean DEFAULT false) RETURNS text
  AS 'MODULE_PATHNAME', 'plainsql_pg_natural_views' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION natural_views(text, boolean) IS
  'The DDL of views that give every table and column a name at that level (N1, N2, N3), named offline; not applied';

CREATE FUNCTION apply_views(level text DEFAULT 'N1', extended boolean DEFAULT false) RETURNS text
  AS 'MODULE_PATHNAME', 'plainsql_pg_apply_views' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION apply_views(text, boolean) IS
  'Creates the natural views in schema db_nl (replacing plainsql''s earlier ones), in the caller''s transaction';

CREATE FUNCTION version() RETURNS text
  AS 'MODULE_PATHNAME', 'plainsql_pg_version' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

GRANT USAGE ON SCHEMA @extschema@ TO PUBLIC;

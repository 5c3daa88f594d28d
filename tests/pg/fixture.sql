-- Fixture for the PostgreSQL tests (tests/pg/pg_test.cpp): awkward names, comments, composite and cross-schema
-- keys, a view, every value type the execution stage converts, and a reader role without superuser rights.
CREATE TABLE plant (
  plant_id    integer PRIMARY KEY,
  plant_name  text NOT NULL UNIQUE,
  city        varchar(40) NOT NULL,
  opened      date,
  active      boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE plant IS 'Production sites';
COMMENT ON COLUMN plant.city IS 'City where the plant is located';

CREATE TABLE "TB_MO" (
  "MO_ID"       bigint PRIMARY KEY,
  "PLNT_ID"     integer NOT NULL REFERENCES plant (plant_id),
  "MO_ST"       char(4) NOT NULL,
  "Reported By" text,
  "select"      numeric(10, 2),
  "Mixed""Quote" double precision
);
COMMENT ON COLUMN "TB_MO"."MO_ST" IS 'Maintenance order status code';

CREATE TABLE "MoOperation" (
  "MO_ID"  bigint NOT NULL REFERENCES "TB_MO" ("MO_ID"),
  "OPR_NO" integer NOT NULL,
  txt      text,
  PRIMARY KEY ("MO_ID", "OPR_NO")
);

CREATE TABLE opr_conf (
  conf_id serial PRIMARY KEY,
  mo_id   bigint NOT NULL,
  opr_no  integer NOT NULL,
  hrs     real,
  CONSTRAINT opr_conf_op_fk FOREIGN KEY (mo_id, opr_no) REFERENCES "MoOperation" ("MO_ID", "OPR_NO")
);
CREATE UNIQUE INDEX opr_conf_lower_idx ON opr_conf ((conf_id * 2));   -- an expression index: not a key
CREATE UNIQUE INDEX opr_conf_partial_idx ON opr_conf (hrs) WHERE hrs > 100;  -- a partial index: not a key

CREATE SCHEMA sales;
CREATE TABLE sales."Customer" (
  id       integer PRIMARY KEY,
  name     text NOT NULL,
  plant_id integer REFERENCES public.plant (plant_id),
  UNIQUE (name)
);
CREATE TABLE sales.sale (
  id          integer PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES sales."Customer" (id),
  amount      numeric(12, 2),
  sold_at     timestamp with time zone
);
CREATE VIEW sales.big_sales AS SELECT id, amount FROM sales.sale WHERE amount > 1000;
CREATE SEQUENCE order_seq;

CREATE TABLE typed (
  i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision, n numeric, b boolean, t text, by bytea,
  d date, ts timestamp, j jsonb, u uuid
);

INSERT INTO plant VALUES (1, 'Riverside Works', 'Toledo', '1968-05-01', true),
                         (2, 'North Ridge Plant', 'Hamilton', '1979-09-15', true),
                         (3, 'Delta Pulp Mill', 'Savannah', NULL, false);
INSERT INTO "TB_MO" VALUES (10, 1, 'CLSD', 'Maria', 1.5, 2.25), (11, 1, 'REL', NULL, NULL, NULL),
                           (12, 2, 'CRTD', 'James', 12.75, -1);
INSERT INTO "MoOperation" VALUES (10, 10, 'Inspect'), (10, 20, 'Repair'), (11, 10, 'Inspect');
INSERT INTO opr_conf (mo_id, opr_no, hrs) VALUES (10, 10, 1.5), (10, 20, 2.0);
INSERT INTO sales."Customer" VALUES (1, 'Acme', 1), (2, 'Globex', NULL);
INSERT INTO sales.sale VALUES (1, 1, 1500.00, '2024-01-02 03:04:05+00'), (2, 2, 20.50, NULL);
INSERT INTO typed VALUES (-2, 40000, 9000000000, 1.5, 2.25, 12345678901234567890.5, true, 'héllo', '\x00ff'::bytea,
                          '2024-02-29', '2024-02-29 12:00:00', '{"a": 1}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
                         (NULL, NULL, NULL, NULL, NULL, 42, false, NULL, NULL, NULL, NULL, NULL, NULL);

-- A login role with no rights beyond reading, for the wrong-password test and least-privilege use.
CREATE ROLE reader LOGIN PASSWORD 'reader-password';
GRANT USAGE ON SCHEMA sales TO reader;
GRANT SELECT ON ALL TABLES IN SCHEMA public, sales TO reader;

-- Created after the grants: the reader role sees it in the catalog but may not read it.
CREATE TABLE hidden_salary (technician text PRIMARY KEY, salary numeric);
INSERT INTO hidden_salary VALUES ('Maria', 50000);

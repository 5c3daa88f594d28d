-- plainsql sample database: plant maintenance, in the style of an ERP maintenance module.
-- Built by CMake (examples/CMakeLists.txt) with: sqlite3 -bail build/examples/plant.db < examples/plant.sql
-- Deterministic: every generated value is a function of a row number, so every build is identical.
-- Names deliberately mix naturalness levels as real systems do: Regular (plant, technician, spare_part),
-- Low (TB_EQUIP, MoOperation, hourly_rate), Least (TB_MO.MO_ST, MO_ST_CD, opr_conf.ACT_HRS), plus a column with
-- a space ("Reported By") and one named after a reserved word ("Group").
PRAGMA foreign_keys = ON;
BEGIN;

CREATE TABLE plant (
  plant_id    INTEGER PRIMARY KEY,
  plant_name  TEXT NOT NULL UNIQUE,
  city        TEXT NOT NULL,
  country     TEXT NOT NULL,
  opened_year INTEGER
);

CREATE TABLE technician (
  technician_id INTEGER PRIMARY KEY,
  first_name    TEXT NOT NULL,
  last_name     TEXT NOT NULL,
  plant_id      INTEGER NOT NULL REFERENCES plant (plant_id),
  hire_date     DATE NOT NULL,
  hourly_rate   REAL NOT NULL,
  is_certified  BOOLEAN NOT NULL DEFAULT 0
);

-- Equipment types (Least natural: a code table as ERP systems keep them).
CREATE TABLE EQ_TYP (
  TYP_CD   TEXT PRIMARY KEY,
  TYP_DESC TEXT NOT NULL
);

CREATE TABLE TB_EQUIP (
  EQ_ID     INTEGER PRIMARY KEY,
  PLNT_ID   INTEGER NOT NULL REFERENCES plant (plant_id),
  EQ_DESC   TEXT NOT NULL,
  EQ_TYP_CD TEXT NOT NULL REFERENCES EQ_TYP (TYP_CD),
  MFR_NM    TEXT,
  INSTL_DT  DATE,
  CRIT_FLG  BOOLEAN NOT NULL DEFAULT 0
);

-- Maintenance order status codes.
CREATE TABLE MO_ST_CD (
  ST_CD   TEXT PRIMARY KEY,
  ST_DESC TEXT NOT NULL,
  IS_OPEN BOOLEAN NOT NULL
);

-- Maintenance orders.
CREATE TABLE TB_MO (
  MO_ID         INTEGER PRIMARY KEY,
  EQ_ID         INTEGER NOT NULL REFERENCES TB_EQUIP (EQ_ID),
  MO_TYP        TEXT NOT NULL CHECK (MO_TYP IN ('PM', 'CM', 'EM')),
  MO_ST         TEXT NOT NULL REFERENCES MO_ST_CD (ST_CD),
  PRIO_CD       INTEGER NOT NULL,
  CRT_DT        DATE NOT NULL,
  SCHED_DT      DATE,
  CMPL_DT       DATE,
  "Reported By" INTEGER REFERENCES technician (technician_id),
  EST_HRS       REAL
);

-- Operations of a maintenance order: composite key (MO_ID, OPR_NO).
CREATE TABLE MoOperation (
  MO_ID         INTEGER NOT NULL REFERENCES TB_MO (MO_ID),
  OPR_NO        INTEGER NOT NULL,
  OprText       TEXT NOT NULL,
  WorkCtr       TEXT NOT NULL,
  PlannedHrs    REAL NOT NULL,
  technician_id INTEGER REFERENCES technician (technician_id),
  PRIMARY KEY (MO_ID, OPR_NO)
);

-- Time confirmations of operations: a composite foreign key to MoOperation.
CREATE TABLE opr_conf (
  CONF_ID    INTEGER PRIMARY KEY,
  MO_ID      INTEGER NOT NULL,
  OPR_NO     INTEGER NOT NULL,
  CONF_DT    DATE NOT NULL,
  ACT_HRS    REAL NOT NULL,
  FINAL_CONF BOOLEAN NOT NULL DEFAULT 0,
  FOREIGN KEY (MO_ID, OPR_NO) REFERENCES MoOperation (MO_ID, OPR_NO)
);

CREATE TABLE spare_part (
  part_no    TEXT PRIMARY KEY,
  part_name  TEXT NOT NULL UNIQUE,
  "Group"    TEXT NOT NULL,
  unit_cost  REAL NOT NULL,
  stock_qty  INTEGER NOT NULL DEFAULT 0
);

-- Parts used by a maintenance order.
CREATE TABLE MO_PART (
  MO_ID   INTEGER NOT NULL REFERENCES TB_MO (MO_ID),
  PART_NO TEXT NOT NULL REFERENCES spare_part (part_no),
  QTY     INTEGER NOT NULL CHECK (QTY > 0),
  PRIMARY KEY (MO_ID, PART_NO)
);

INSERT INTO plant VALUES
  (1, 'Riverside Works', 'Toledo', 'USA', 1968),
  (2, 'North Ridge Plant', 'Hamilton', 'Canada', 1979),
  (3, 'Delta Pulp Mill', 'Savannah', 'USA', 1985),
  (4, 'Lakeshore Refinery', 'Gdansk', 'Poland', 1994),
  (5, 'Sierra Bottling', 'Monterrey', 'Mexico', 2003),
  (6, 'Harbor Chemicals', 'Rotterdam', 'Netherlands', 2011);

INSERT INTO EQ_TYP VALUES
  ('PUMP', 'Centrifugal pump'), ('COMP', 'Air compressor'), ('CONV', 'Belt conveyor'), ('MTR', 'Electric motor'),
  ('VLV', 'Control valve'), ('HX', 'Heat exchanger'), ('BLR', 'Steam boiler'), ('GEN', 'Standby generator');

INSERT INTO MO_ST_CD VALUES
  ('CRTD', 'Created', 1), ('REL', 'Released', 1), ('INPR', 'In progress', 1),
  ('TECO', 'Technically completed', 0), ('CLSD', 'Closed', 0), ('CNCL', 'Cancelled', 0);

-- 48 technicians, eight per plant.
INSERT INTO technician (technician_id, first_name, last_name, plant_id, hire_date, hourly_rate, is_certified)
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 48),
first(i, name) AS (VALUES (0, 'Maria'), (1, 'James'), (2, 'Aiko'), (3, 'Pedro'), (4, 'Olga'), (5, 'Samuel'),
                          (6, 'Fatima'), (7, 'Liam'), (8, 'Chen'), (9, 'Nadia'), (10, 'Tomasz'), (11, 'Grace')),
last(i, name) AS (VALUES (0, 'Garcia'), (1, 'Smith'), (2, 'Tanaka'), (3, 'Silva'), (4, 'Ivanova'), (5, 'Okafor'),
                         (6, 'Haddad'), (7, 'Murphy'), (8, 'Wei'), (9, 'Kowalski'), (10, 'Jansen'))
SELECT n, first.name, last.name, (n - 1) / 8 + 1,
       date('2005-01-01', '+' || ((n * 389) % 6200) || ' days'),
       round(28 + (n * 37 % 23) + (n % 4) * 0.25, 2),
       (n * 7) % 3 <> 0
FROM seq JOIN first ON first.i = (n * 5) % 12 JOIN last ON last.i = (n * 7) % 11;

-- 180 pieces of equipment, 30 per plant.
INSERT INTO TB_EQUIP (EQ_ID, PLNT_ID, EQ_DESC, EQ_TYP_CD, MFR_NM, INSTL_DT, CRIT_FLG)
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 180),
typ(i, cd, word) AS (VALUES (0, 'PUMP', 'Pump'), (1, 'COMP', 'Compressor'), (2, 'CONV', 'Conveyor'),
                            (3, 'MTR', 'Motor'), (4, 'VLV', 'Valve'), (5, 'HX', 'Heat exchanger'),
                            (6, 'BLR', 'Boiler'), (7, 'GEN', 'Generator')),
mfr(i, name) AS (VALUES (0, 'Grundfos'), (1, 'Atlas Copco'), (2, 'Siemens'), (3, 'ABB'), (4, 'Emerson'),
                        (5, 'Alfa Laval'), (6, 'Cummins'), (7, NULL))
SELECT n, (n - 1) / 30 + 1,
       typ.word || ' ' || printf('%s-%03d', substr('ABCDEFGH', (n % 8) + 1, 1), n),
       typ.cd, mfr.name,
       date('1990-01-01', '+' || ((n * 613) % 11000) || ' days'),
       (n % 5) = 0
FROM seq JOIN typ ON typ.i = (n * 3) % 8 JOIN mfr ON mfr.i = (n * 5) % 8;

-- 900 maintenance orders over 2021-2024.
INSERT INTO TB_MO (MO_ID, EQ_ID, MO_TYP, MO_ST, PRIO_CD, CRT_DT, SCHED_DT, CMPL_DT, "Reported By", EST_HRS)
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 900),
base AS (
  SELECT n,
         (n * 53 + (n * n) % 41) % 180 + 1 AS eq,  -- uneven on purpose: some equipment fails more often
         CASE (n * 7) % 10 WHEN 0 THEN 'EM' WHEN 1 THEN 'CM' WHEN 2 THEN 'CM' WHEN 3 THEN 'CM' ELSE 'PM' END AS typ,
         CASE WHEN n > 860 THEN 'CRTD' WHEN n > 820 THEN 'REL' WHEN n > 780 THEN 'INPR'
              WHEN (n * 11) % 29 = 0 THEN 'CNCL' WHEN (n * 3) % 7 = 0 THEN 'TECO' ELSE 'CLSD' END AS st,
         date('2021-01-01', '+' || ((n * 1461) / 900) || ' days') AS crt
  FROM seq)
SELECT n, eq, typ, st,
       CASE typ WHEN 'EM' THEN 1 WHEN 'CM' THEN 2 + (n % 2) ELSE 3 + (n % 2) END,
       crt,
       CASE WHEN st = 'CNCL' THEN NULL ELSE date(crt, '+' || ((n * 13) % 21) || ' days') END,
       CASE WHEN st IN ('TECO', 'CLSD') THEN date(crt, '+' || (1 + (n * 17) % 40) || ' days') END,
       CASE WHEN typ = 'PM' THEN NULL ELSE ((eq - 1) / 30) * 8 + (n % 8) + 1 END,
       round(1 + (n * 29 % 47) / 4.0, 1)
FROM base;

-- Two operations per order.
INSERT INTO MoOperation (MO_ID, OPR_NO, OprText, WorkCtr, PlannedHrs, technician_id)
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 1800),
txt(i, t, wc) AS (VALUES (0, 'Inspect and record condition', 'MECH'), (1, 'Replace seals and gaskets', 'MECH'),
                         (2, 'Check motor insulation', 'ELEC'), (3, 'Lubricate bearings', 'MECH'),
                         (4, 'Calibrate instruments', 'INST'), (5, 'Test safety interlocks', 'ELEC'),
                         (6, 'Clean and flush', 'MECH'), (7, 'Align coupling', 'MECH'))
SELECT (n + 1) / 2, 10 * (2 - n % 2), txt.t, txt.wc,
       round(0.5 + ((n * 31) % 17) / 4.0, 2),
       CASE WHEN (n * 3) % 10 = 0 THEN NULL
            ELSE (((SELECT EQ_ID FROM TB_MO WHERE MO_ID = (n + 1) / 2) - 1) / 30) * 8 + (n * 5) % 8 + 1 END
FROM seq JOIN txt ON txt.i = (n * 3) % 8;

-- Confirmations for operations of orders that have started.
INSERT INTO opr_conf (CONF_ID, MO_ID, OPR_NO, CONF_DT, ACT_HRS, FINAL_CONF)
SELECT row_number() OVER (ORDER BY o.MO_ID, o.OPR_NO), o.MO_ID, o.OPR_NO,
       date(m.CRT_DT, '+' || (1 + (o.MO_ID * 7 + o.OPR_NO) % 30) || ' days'),
       round(o.PlannedHrs * (0.6 + ((o.MO_ID * 13 + o.OPR_NO) % 9) / 10.0), 2),
       m.MO_ST IN ('TECO', 'CLSD')
FROM MoOperation o JOIN TB_MO m ON m.MO_ID = o.MO_ID
WHERE m.MO_ST IN ('INPR', 'TECO', 'CLSD');

-- 150 spare parts.
INSERT INTO spare_part (part_no, part_name, "Group", unit_cost, stock_qty)
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 150),
kind(i, word, grp) AS (VALUES (0, 'Mechanical seal', 'SEALS'), (1, 'Ball bearing', 'BEARINGS'),
                              (2, 'V-belt', 'DRIVES'), (3, 'Gasket set', 'SEALS'), (4, 'Contactor', 'ELECTRICAL'),
                              (5, 'Pressure sensor', 'INSTRUMENTS'), (6, 'Filter cartridge', 'FILTERS'),
                              (7, 'Coupling insert', 'DRIVES'), (8, 'Fuse 63A', 'ELECTRICAL'),
                              (9, 'O-ring kit', 'SEALS'))
SELECT printf('SP-%05d', 10000 + n * 7), kind.word || ' ' || printf('%s%d', char(65 + n % 26), n), kind.grp,
       round(4.5 + (n * 97 % 1200) / 3.0, 2), (n * 23) % 60
FROM seq JOIN kind ON kind.i = n % 10;

-- Parts used: up to two different parts per corrective or emergency order, one per preventive order.
INSERT INTO MO_PART (MO_ID, PART_NO, QTY)
SELECT m.MO_ID, printf('SP-%05d', 10000 + ((m.MO_ID * 11) % 150 + 1) * 7), 1 + m.MO_ID % 4
FROM TB_MO m WHERE m.MO_ST <> 'CNCL'
UNION ALL
SELECT m.MO_ID, printf('SP-%05d', 10000 + ((m.MO_ID * 11 + 73) % 150 + 1) * 7), 1 + m.MO_ID % 3
FROM TB_MO m WHERE m.MO_ST <> 'CNCL' AND m.MO_TYP <> 'PM';

-- A view a reporting tool would keep: orders that are still open, with their equipment and plant.
CREATE VIEW open_orders AS
SELECT m.MO_ID AS order_id, e.EQ_DESC AS equipment, p.plant_name, s.ST_DESC AS status, m.PRIO_CD AS priority,
       m.CRT_DT AS created_on
FROM TB_MO m
JOIN MO_ST_CD s ON s.ST_CD = m.MO_ST
JOIN TB_EQUIP e ON e.EQ_ID = m.EQ_ID
JOIN plant p ON p.plant_id = e.PLNT_ID
WHERE s.IS_OPEN = 1;

COMMIT;
PRAGMA foreign_key_check;

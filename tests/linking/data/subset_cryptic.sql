-- Fixture for subset_test (issue #18): cryptic names and no declared keys, as in a database loaded from an old
-- system's export. Both tables are wider than a small table, so their columns are ranked; they share the key CUSTNO
-- and the audit columns CRTDATE, UPDDATE, CRTUSR, UPDUSR, STATCD.
CREATE TABLE CUSTMR (CUSTNO INTEGER, CUSTNM TEXT, CTYNM TEXT, EMLADDR TEXT, CRTDATE DATE, UPDDATE DATE, CRTUSR TEXT,
                     UPDUSR TEXT, STATCD TEXT, RGNCD TEXT, PHNNO TEXT, FAXNO TEXT, CRDLMT REAL, BALAMT REAL);
CREATE TABLE ORDHDR (ORDNO INTEGER, CUSTNO INTEGER, ORDDATE DATE, TOTAMT REAL, SHPDATE DATE, CRTDATE DATE,
                     UPDDATE DATE, CRTUSR TEXT, UPDUSR TEXT, STATCD TEXT, CURRCD TEXT, DSCNTAMT REAL, TAXAMT REAL,
                     WHSCD TEXT, ShipViaCd TEXT);
INSERT INTO CUSTMR (CUSTNO, CUSTNM, CTYNM, CRDLMT) VALUES (1, 'Ada Lovelace', 'London', 5000), (2, 'Alan Turing',
                                                                                                 'Manchester', 2000);
INSERT INTO ORDHDR (ORDNO, CUSTNO, ORDDATE, TOTAMT, SHPDATE) VALUES (10, 1, '2024-05-01', 99.5, '2024-05-03'),
                                                                   (11, 2, '2024-05-02', 12, '2024-05-06');

-- Fixture for subset_test (issue #18): cryptic names and no declared keys, as in a database loaded from an old
-- system's export. Both tables are wider than a small table, so their columns are ranked; they share the key CUSTNO
-- and the audit columns CRTDATE, UPDDATE, CRTUSR, UPDUSR, STATCD. EMPL and TEAM join through TMMBR, which pairs
-- their keys EMPNO and TEAMNO and which no question names.
CREATE TABLE CUSTMR (CUSTNO INTEGER, CUSTNM TEXT, CTYNM TEXT, EMLADDR TEXT, CRTDATE DATE, UPDDATE DATE, CRTUSR TEXT,
                     UPDUSR TEXT, STATCD TEXT, RGNCD TEXT, PHNNO TEXT, FAXNO TEXT, CRDLMT REAL, BALAMT REAL);
CREATE TABLE ORDHDR (ORDNO INTEGER, CUSTNO INTEGER, ORDDATE DATE, TOTAMT REAL, SHPDATE DATE, CRTDATE DATE,
                     UPDDATE DATE, CRTUSR TEXT, UPDUSR TEXT, STATCD TEXT, CURRCD TEXT, DSCNTAMT REAL, TAXAMT REAL,
                     WHSCD TEXT, ShipViaCd TEXT);
INSERT INTO CUSTMR (CUSTNO, CUSTNM, CTYNM, CRDLMT) VALUES (1, 'Ada Lovelace', 'London', 5000), (2, 'Alan Turing',
                                                                                                 'Manchester', 2000);
INSERT INTO ORDHDR (ORDNO, CUSTNO, ORDDATE, TOTAMT, SHPDATE) VALUES (10, 1, '2024-05-01', 99.5, '2024-05-03'),
                                                                   (11, 2, '2024-05-02', 12, '2024-05-06');
CREATE TABLE EMPL (EMPNO INTEGER, FRSTNM TEXT, LSTNM TEXT, HIREDT DATE, SLRYAMT REAL, CRTDATE DATE, UPDDATE DATE,
                   CRTUSR TEXT, UPDUSR TEXT, STATCD TEXT);
CREATE TABLE TEAM (TEAMNO INTEGER, TEAMNM TEXT, CRTDATE DATE, UPDDATE DATE, CRTUSR TEXT, UPDUSR TEXT, STATCD TEXT);
CREATE TABLE TMMBR (TEAMNO INTEGER, EMPNO INTEGER, ROLECD TEXT);
INSERT INTO EMPL (EMPNO, FRSTNM, LSTNM) VALUES (1, 'Grace', 'Hopper'), (2, 'Edsger', 'Dijkstra');
INSERT INTO TEAM (TEAMNO, TEAMNM) VALUES (1, 'Sales'), (2, 'Purchasing');
INSERT INTO TMMBR (TEAMNO, EMPNO, ROLECD) VALUES (1, 1, 'M'), (2, 2, 'M');

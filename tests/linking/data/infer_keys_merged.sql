-- Three databases merged into one schema, each table's name prefixed by its database's (as a haystack or a warehouse
-- of several sources has them), no keys declared and no rows: names alone must say which table a key column points
-- at, and the look-alike tables of another database must not be it (infer_keys_test.cpp, infer_keys_merged_expected.txt).
CREATE TABLE parks_north__tbl_Locations (Location_ID TEXT, Park_Name TEXT, County TEXT);
CREATE TABLE parks_north__tbl_Events (Event_ID TEXT, Location_ID TEXT, Start_Date TEXT);
CREATE TABLE parks_north__tbl_Nests (Nest_ID TEXT, Event_ID TEXT, Species TEXT);
CREATE TABLE parks_south__tbl_Locations (Location_ID TEXT, Park_Name TEXT, Elevation REAL);
CREATE TABLE parks_south__tbl_Events (Event_ID TEXT, Location_ID TEXT, Observer TEXT);
CREATE TABLE parks_south__tbl_Trees (Tree_ID TEXT, Event_ID TEXT, Height REAL);
CREATE TABLE gym__people (People_ID INTEGER, Name TEXT, Height REAL);
CREATE TABLE gym__gymnast (Gymnast_ID INTEGER, People_ID INTEGER, Total_Points REAL);
CREATE TABLE club__people (People_ID INTEGER, Name TEXT, Age INTEGER);
CREATE TABLE club__member (Member_ID INTEGER, People_ID INTEGER, Joined TEXT);

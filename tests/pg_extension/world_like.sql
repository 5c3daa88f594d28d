-- A small database shaped like Spider's world_1 (MySQL's "world" sample: country, city, countrylanguage, with its
-- short names: Code, Code2, IndepYear, GNP, LifeExpectancy), written for the extension's tests with a few countries
-- and rounded figures; not benchmark data.
CREATE TABLE country (
  "Code" char(3) PRIMARY KEY,
  "Name" text NOT NULL,
  "Continent" text NOT NULL,
  "Region" text NOT NULL,
  "SurfaceArea" numeric(10, 2) NOT NULL,
  "IndepYear" smallint,
  "Population" integer NOT NULL,
  "LifeExpectancy" numeric(3, 1),
  "GNP" numeric(10, 2),
  "GovernmentForm" text NOT NULL,
  "HeadOfState" text,
  "Capital" integer,
  "Code2" char(2) NOT NULL
);
CREATE TABLE city (
  "ID" integer PRIMARY KEY,
  "Name" text NOT NULL,
  "CountryCode" char(3) NOT NULL REFERENCES country ("Code"),
  "District" text NOT NULL,
  "Population" integer NOT NULL
);
CREATE TABLE countrylanguage (
  "CountryCode" char(3) NOT NULL REFERENCES country ("Code"),
  "Language" text NOT NULL,
  "IsOfficial" char(1) NOT NULL CHECK ("IsOfficial" IN ('T', 'F')),
  "Percentage" numeric(4, 1) NOT NULL,
  PRIMARY KEY ("CountryCode", "Language")
);
INSERT INTO country VALUES
  ('FRA', 'France', 'Europe', 'Western Europe', 551500, 843, 59000000, 78.8, 1424000, 'Republic', 'President', 1, 'FR'),
  ('DEU', 'Germany', 'Europe', 'Western Europe', 357022, 1955, 82000000, 77.4, 2133000, 'Federal Republic', 'President', 2, 'DE'),
  ('CAN', 'Canada', 'North America', 'North America', 9970610, 1867, 31000000, 79.4, 598000, 'Constitutional Monarchy, Federation', 'Monarch', 3, 'CA'),
  ('BRA', 'Brazil', 'South America', 'South America', 8547403, 1822, 170000000, 62.9, 776000, 'Federal Republic', 'President', 4, 'BR'),
  ('JPN', 'Japan', 'Asia', 'Eastern Asia', 377829, -660, 126000000, 80.7, 3787000, 'Constitutional Monarchy', 'Emperor', 5, 'JP'),
  ('KEN', 'Kenya', 'Africa', 'Eastern Africa', 580367, 1963, 30000000, 48.0, 9217, 'Republic', 'President', 6, 'KE'),
  ('AUS', 'Australia', 'Oceania', 'Australia and New Zealand', 7741220, 1901, 18000000, 79.8, 351000, 'Constitutional Monarchy, Federation', 'Monarch', 7, 'AU'),
  ('ATA', 'Antarctica', 'Antarctica', 'Antarctica', 13120000, NULL, 0, NULL, 0, 'Co-administrated', NULL, NULL, 'AQ');
INSERT INTO city VALUES
  (1, 'Paris', 'FRA', 'Ile-de-France', 2125000), (8, 'Lyon', 'FRA', 'Rhone-Alpes', 445000),
  (2, 'Berlin', 'DEU', 'Berlin', 3386000), (9, 'Hamburg', 'DEU', 'Hamburg', 1704000),
  (3, 'Ottawa', 'CAN', 'Ontario', 335000), (10, 'Toronto', 'CAN', 'Ontario', 688000),
  (4, 'Brasilia', 'BRA', 'Distrito Federal', 1969000), (11, 'Sao Paulo', 'BRA', 'Sao Paulo', 9968000),
  (5, 'Tokyo', 'JPN', 'Tokyo-to', 7980000), (6, 'Nairobi', 'KEN', 'Nairobi', 2290000),
  (7, 'Canberra', 'AUS', 'Capital Region', 322000), (12, 'Sydney', 'AUS', 'New South Wales', 3276000);
INSERT INTO countrylanguage VALUES
  ('FRA', 'French', 'T', 93.6), ('FRA', 'Arabic', 'F', 2.5),
  ('DEU', 'German', 'T', 91.3), ('DEU', 'Turkish', 'F', 2.6),
  ('CAN', 'English', 'T', 60.4), ('CAN', 'French', 'T', 23.4),
  ('BRA', 'Portuguese', 'T', 97.5), ('BRA', 'German', 'F', 0.5),
  ('JPN', 'Japanese', 'T', 99.1),
  ('KEN', 'Swahili', 'T', 6.0), ('KEN', 'Kikuyu', 'F', 20.9),
  ('AUS', 'English', 'T', 81.2), ('AUS', 'Italian', 'F', 2.2);

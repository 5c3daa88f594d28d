-- A shop loaded from CSV files: no primary or foreign key is declared (issue #18, inferred keys). Used by
-- tests/linking/infer_keys_test.cpp; the keys it should get are in infer_keys_expected.txt.
CREATE TABLE customers (customer_id INTEGER, name TEXT, city TEXT);
INSERT INTO customers VALUES (1, 'Ann', 'Oslo'), (2, 'Bo', 'Rome'), (3, 'Cy', 'Oslo'), (4, 'Di', 'Lima'), (5, 'Ed', 'Rome');
CREATE TABLE staff (staff_id INTEGER, name TEXT);
INSERT INTO staff VALUES (101, 'Kim'), (102, 'Lee'), (103, 'Max');
CREATE TABLE products (code TEXT, description TEXT, price REAL);
INSERT INTO products VALUES ('P-1', 'lamp', 20.0), ('P-2', 'desk', 150.0), ('P-3', 'chair', 60.0), ('P-4', 'shelf', 80.0);
-- "sold_by" names no table: its values are in exactly one key, and it does not end in a key word, so it stays unlinked.
CREATE TABLE orders (order_id INTEGER, customer_id INTEGER, sold_by INTEGER, handler_staff_id INTEGER, quantity INTEGER);
INSERT INTO orders VALUES (10, 1, 101, 101, 2), (11, 2, 102, 102, 1), (12, 2, 101, 101, 3), (13, 4, 103, 103, 1),
  (14, 5, 102, 102, 2), (15, 1, 101, 103, 4);
CREATE TABLE order_lines (order_id INTEGER, product_code TEXT, quantity INTEGER);
INSERT INTO order_lines VALUES (10, 'P-1', 1), (10, 'P-2', 1), (11, 'P-3', 2), (12, 'P-1', 1), (13, 'P-4', 1),
  (14, 'P-2', 3), (15, 'P-3', 1);
-- A column named like a key whose values are not in it: no foreign key.
CREATE TABLE reviews (review_id INTEGER, customer_id INTEGER, stars INTEGER);
INSERT INTO reviews VALUES (1, 1, 5), (2, 77, 3), (3, 88, 4), (4, 99, 2);

-- Fixture for subset_test (issue #18): a small shop. order_line is the many-to-many table between orders and product
-- that no question names; warehouse_stock is wide (more columns than a small table), so its columns are ranked.
CREATE TABLE customer (customer_id INTEGER PRIMARY KEY, full_name TEXT, city TEXT, email TEXT, signup_date DATE);
CREATE TABLE supplier (supplier_id INTEGER PRIMARY KEY, company_name TEXT, country TEXT);
CREATE TABLE product (product_id INTEGER PRIMARY KEY, title TEXT, unit_price REAL, category TEXT,
                      supplier_id INTEGER REFERENCES supplier(supplier_id));
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(customer_id),
                     order_date DATE, status TEXT);
CREATE TABLE order_line (order_id INTEGER REFERENCES orders(order_id), product_id INTEGER REFERENCES product(product_id),
                         quantity INTEGER, PRIMARY KEY (order_id, product_id));
CREATE TABLE warehouse_stock (stock_id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES product(product_id),
  aisle TEXT, shelf TEXT, bin_code TEXT, on_hand INTEGER, reserved INTEGER, reorder_level INTEGER, reorder_qty INTEGER,
  last_count_date DATE, counted_by TEXT, temperature REAL, humidity REAL, zone TEXT, pallet_code TEXT,
  lot_number TEXT, expiry_date DATE, damaged INTEGER, returned INTEGER, inbound_dock TEXT, outbound_dock TEXT);
INSERT INTO customer VALUES (1, 'Ada Lovelace', 'London', 'ada@example.org', '2024-01-02'),
                            (2, 'Alan Turing', 'Manchester', 'alan@example.org', '2024-03-04');
INSERT INTO supplier VALUES (1, 'Northwind Traders', 'Norway'), (2, 'Acme Tools', 'Canada');
INSERT INTO product VALUES (1, 'Hammer', 12.5, 'tools', 2), (2, 'Smoked Salmon', 30, 'food', 1);
INSERT INTO orders VALUES (1, 1, '2024-05-01', 'shipped'), (2, 2, '2024-05-02', 'pending');
INSERT INTO order_line VALUES (1, 1, 2), (2, 2, 1);
INSERT INTO warehouse_stock (stock_id, product_id, aisle, zone, on_hand) VALUES (1, 1, 'A3', 'cold', 10);

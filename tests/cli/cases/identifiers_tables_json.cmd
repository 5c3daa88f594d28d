identifiers --tables "$FIXTURES/tables.json" --db shop "SELECT o.placed, l.qty, p.nme FROM Orders o JOIN order_line l USING (OrderID, Site) JOIN product p ON p.prod_id = l.prod_id"

schema mysql://root@localhost/db

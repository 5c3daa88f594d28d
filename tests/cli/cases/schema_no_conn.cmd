schema

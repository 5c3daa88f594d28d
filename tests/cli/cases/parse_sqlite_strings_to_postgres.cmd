parse --to postgres --conn $SAMPLE_DB 'SELECT "Group", count(*) FROM spare_part WHERE "Group" <> "Filters" GROUP BY 1'

schema "sqlite:$SAMPLE_DB" --no-cache

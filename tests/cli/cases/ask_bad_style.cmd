ask $SAMPLE_DB "q" --llm http://127.0.0.1:9/v1 --model m --style haiku

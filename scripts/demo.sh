#!/usr/bin/env bash
# Installs what plainsql needs, builds it, and runs the main job on the bundled sample database: prints the schema
# and answers a query.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPLAINSQL_BUILD_TESTS=OFF -DPLAINSQL_BUILD_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc)" --target plainsql sample_db
db=build/examples/plant.db
echo
echo "== plainsql schema $db --format list"
./build/plainsql schema "$db" --format list
echo
echo "== plainsql sql $db \"...open maintenance orders per plant...\""
./build/plainsql sql "$db" "SELECT p.plant_name, count(*) AS open_orders
  FROM TB_MO m
  JOIN MO_ST_CD s ON s.ST_CD = m.MO_ST
  JOIN TB_EQUIP e ON e.EQ_ID = m.EQ_ID
  JOIN plant p ON p.plant_id = e.PLNT_ID
  WHERE s.IS_OPEN = 1
  GROUP BY p.plant_name
  ORDER BY open_orders DESC, p.plant_name"
echo
echo "== plainsql profile $db --top 8   (how natural are the names an LLM would see?)"
./build/plainsql profile "$db" --top 8
echo
echo "== plainsql ask $db \"Which plant has the most technicians?\" --explain   (the main job)"
./build/plainsql ask "$db" "Which plant has the most technicians?" --explain
echo
echo "== plainsql ask $db \"Show the equipment descriptions of plant Riverside Works\"   (EQ_DESC found by its expansion)"
./build/plainsql ask "$db" "Show the equipment descriptions of plant Riverside Works" --max-rows 5
echo
echo "(no LLM configured: the built-in offline translator answered. Set PLAINSQL_LLM_URL and PLAINSQL_LLM_MODEL to an"
echo " OpenAI-compatible server such as Ollama and plainsql ask uses the model; plainsql prompt shows what it sends.)"

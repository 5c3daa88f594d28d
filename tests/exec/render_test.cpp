// Renderings of result sets: aligned table, CSV, JSON.
#include <gtest/gtest.h>

#include "exec/render.h"

namespace plainsql::exec {
namespace {

ResultSet Sample() {
  ResultSet rs;
  rs.columns = {"id", "name", "score"};
  rs.column_types = {"INTEGER", "TEXT", "REAL"};
  rs.rows.push_back({Value::Integer(1), Value::Text("Gdańsk"), Value::Real(2.5)});
  rs.rows.push_back({Value::Integer(22), Value::Text("a,\"b\"\nc"), Value::Null()});
  return rs;
}

TEST(Render, Table) {
  EXPECT_EQ(RenderTable(Sample()),
            "id | name     | score\n"
            "---+----------+------\n"
            " 1 | Gdańsk   |   2.5\n"
            "22 | a,\"b\"\\nc |  NULL\n"
            "(2 rows)\n");
  ResultSet one;
  one.columns = {"x"};
  one.rows.push_back({Value::Text("y")});
  one.truncated = true;
  EXPECT_EQ(RenderTable(one), "x\n-\ny\n(1 row, truncated by the row limit)\n");
}

TEST(Render, Csv) { EXPECT_EQ(RenderCsv(Sample()), "id,name,score\r\n1,Gdańsk,2.5\r\n22,\"a,\"\"b\"\"\nc\",\r\n"); }

TEST(Render, Json) {
  auto j = ResultToJson(Sample());
  EXPECT_EQ(j["columns"], nlohmann::ordered_json({"id", "name", "score"}));
  EXPECT_EQ(j["rows"][0][0], 1);
  EXPECT_EQ(j["rows"][0][1], "Gdańsk");
  EXPECT_EQ(j["rows"][0][2], 2.5);
  EXPECT_TRUE(j["rows"][1][2].is_null());
  EXPECT_EQ(j["row_count"], 2);
  EXPECT_EQ(j["truncated"], false);
  EXPECT_EQ(ValueToJson(Value::MakeBlob("\x01")), "\\x01");
  EXPECT_TRUE(ValueToJson(Value::Real(1.0 / 0.0)).is_null());
}

}  // namespace
}  // namespace plainsql::exec

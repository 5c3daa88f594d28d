// Benchmark loaders (see benchmark.h).
#include "eval/benchmark.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "catalog/benchmark_schema.h"
#include "common/csv.h"
#include "common/file.h"
#include "common/strings.h"

namespace plainsql::eval {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string Field(const json& o, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (o.contains(n) && o[n].is_string()) return o[n].get<std::string>();
  }
  return "";
}

Status CheckQuestion(const Question& q, const std::string& where) {
  if (q.gold_sql.empty()) return MakeError(ErrorCode::kFormat, fmt::format("{}: no gold SQL", where));
  if (q.db_id.empty()) return MakeError(ErrorCode::kFormat, fmt::format("{}: no db_id", where));
  return Status::Ok();
}

Result<Question> FromJson(const json& o, size_t index, const std::string& where) {
  if (!o.is_object()) return MakeError(ErrorCode::kFormat, fmt::format("{}: not a JSON object", where));
  Question q;
  q.index = index;
  q.db_id = Field(o, {"db_id", "db"});
  // Spider-Syn names its question SpiderSynQuestion (and keeps the original as SpiderQuestion).
  q.question = Field(o, {"question", "SpiderSynQuestion"});
  q.gold_sql = Field(o, {"query", "SQL", "sql", "gold"});
  q.evidence = Field(o, {"evidence"});
  q.difficulty = Field(o, {"difficulty", "hardness"});
  q.paraphrase = Field(o, {"question_syn"});
  if (o.contains("sql") && o["sql"].is_object()) q.spider_sql_json = o["sql"].dump();
  if (Status s = CheckQuestion(q, where); !s) return s.error();
  return q;
}

}  // namespace

Result<Benchmark> LoadSpiderQuestions(const std::string& path, const std::string& name) {
  auto j = catalog::ReadJsonFile(path);
  if (!j) return j.error();
  if (!j->is_array()) return MakeError(ErrorCode::kFormat, fmt::format("{}: expected a JSON list of questions", path));
  Benchmark b;
  b.name = name;
  for (size_t i = 0; i < j->size(); ++i) {
    auto q = FromJson((*j)[i], i, fmt::format("{}: question {}", path, i));
    if (!q) return q.error();
    b.questions.push_back(std::move(*q));
  }
  return b;
}

Result<Benchmark> LoadSnailsPairs(const std::string& path, const std::string& db_id) {
  Benchmark b;
  b.name = "snails";
  b.dialect = "tsql";
  std::vector<std::string> files;
  if (fs::is_directory(path)) {
    for (const auto& f : fs::directory_iterator(path)) {
      if (f.is_regular_file() && f.path().extension() == ".sql") files.push_back(f.path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) return MakeError(ErrorCode::kNotFound, fmt::format("no .sql pair files in {}", path));
  } else {
    files.push_back(path);
  }
  for (const auto& file : files) {
    auto text = ReadFileToString(file);
    if (!text) return text.error();
    std::string db = db_id.empty() ? fs::path(file).stem().string() : db_id;
    Question q;
    bool in_question = false;
    std::string sql;
    int line_no = 0, started = 0;
    auto finish = [&]() -> Status {
      std::string s(Trim(sql));
      if (!in_question) return Status::Ok();
      if (s.empty()) return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: question without SQL", file, started));
      q.gold_sql = s;
      q.db_id = db;
      q.index = b.questions.size();
      b.questions.push_back(q);
      q = Question{};
      sql.clear();
      in_question = false;
      return Status::Ok();
    };
    for (std::string line : Split(*text, '\n')) {
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      std::string_view t = Trim(line);
      if (t.starts_with("--")) {
        std::string_view c = Trim(t.substr(2));
        size_t colon = c.find(':');
        bool numbered = colon != std::string_view::npos && colon > 0 &&
                        std::all_of(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(colon),
                                    [](char ch) { return ch >= '0' && ch <= '9'; });
        if (numbered && Trim(sql).empty()) {
          if (in_question) {
            if (Status s = finish(); !s) return s.error();
          }
          in_question = true;
          started = line_no;
          q.question = std::string(Trim(c.substr(colon + 1)));
          continue;
        }
        if (c.starts_with("@HINT") || c.starts_with("@hint")) {
          q.evidence += (q.evidence.empty() ? "" : "\n") + std::string(Trim(c.substr(5)));
          continue;
        }
        continue;  // other comments
      }
      if (!in_question) continue;
      size_t semi = line.find(';');
      if (semi != std::string::npos) {
        sql += line.substr(0, semi);
        if (Status s = finish(); !s) return s.error();
        continue;
      }
      sql += line + "\n";
    }
    if (in_question) {
      if (Status s = finish(); !s) return s.error();
    }
  }
  // A file of another format (a JSON list of questions is --benchmark spider) reads as no pairs: say so rather than
  // score nothing.
  if (b.questions.empty()) {
    return MakeError(ErrorCode::kFormat,
                     fmt::format("no SNAILS question pairs in {} (expected \"-- N: question\" lines, each followed by "
                                 "its SQL); a JSON list of questions is --benchmark spider",
                                 path));
  }
  return b;
}

Result<Benchmark> LoadCustom(const std::string& path) {
  Benchmark b;
  b.name = "custom";
  std::string ext = ToLower(fs::path(path).extension().string());
  auto text = ReadFileToString(path);
  if (!text) return text.error();
  if (ext == ".csv") {
    std::vector<std::string> lines = Split(*text, '\n');
    std::vector<std::string> header;
    size_t n = 0;
    for (std::string line : lines) {
      ++n;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (Trim(line).empty()) continue;
      std::vector<std::string> f = ParseCsvRecord(line);
      if (header.empty()) {
        for (auto& h : f) h = ToLower(std::string(Trim(h)));
        header = f;
        continue;
      }
      json o = json::object();
      for (size_t i = 0; i < f.size() && i < header.size(); ++i) o[header[i]] = f[i];
      auto q = FromJson(o, b.questions.size(), fmt::format("{}:{}", path, n));
      if (!q) return q.error();
      b.questions.push_back(std::move(*q));
    }
    if (header.empty()) return MakeError(ErrorCode::kFormat, fmt::format("{}: empty CSV", path));
    return b;
  }
  // A JSON list of objects (a .json file whose text starts with '['), else JSON Lines.
  if (std::string_view body = Trim(*text); body.starts_with("[")) {
    json list = json::parse(body, nullptr, false);
    if (list.is_discarded() || !list.is_array()) {
      return MakeError(ErrorCode::kFormat, fmt::format("{}: not a JSON list of objects", path));
    }
    for (const json& o : list) {
      auto q = FromJson(o, b.questions.size(), fmt::format("{}: item {}", path, b.questions.size() + 1));
      if (!q) return q.error();
      b.questions.push_back(std::move(*q));
    }
    return b;
  }
  size_t n = 0;
  for (const std::string& line : Split(*text, '\n')) {
    ++n;
    if (Trim(line).empty()) continue;
    json o = json::parse(line, nullptr, false);
    if (o.is_discarded()) return MakeError(ErrorCode::kFormat, fmt::format("{}:{}: not a JSON object", path, n));
    auto q = FromJson(o, b.questions.size(), fmt::format("{}:{}", path, n));
    if (!q) return q.error();
    b.questions.push_back(std::move(*q));
  }
  return b;
}

Result<Benchmark> LoadBenchmark(const std::string& kind, const std::string& path) {
  std::string k = ToLower(kind);
  if (k == "spider" || k == "bird") return LoadSpiderQuestions(path, k);
  if (k == "snails") return LoadSnailsPairs(path);
  if (k == "custom") return LoadCustom(path);
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("unknown benchmark '{}': spider, bird, snails or custom", kind));
}

std::string SqliteDatabasePath(const std::string& db_dir, const std::string& db_id) {
  for (const std::string& p : {db_dir + "/" + db_id + "/" + db_id + ".sqlite", db_dir + "/" + db_id + ".sqlite",
                               db_dir + "/" + db_id + "/" + db_id + ".db", db_dir + "/" + db_id + ".db"}) {
    if (fs::is_regular_file(p)) return p;
  }
  return "";
}

GoldLine SplitGoldLine(std::string_view line) {
  GoldLine out;
  out.sql = line;
  size_t tab = line.rfind('\t');
  if (tab == std::string_view::npos) return out;
  std::string_view tail = line.substr(tab + 1);
  bool word = !tail.empty() && std::all_of(tail.begin(), tail.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
  if (!word) {
    std::string shown(Trim(tail).substr(0, 40));
    out.tab_inside = fmt::format("a TAB at column {} is followed by '{}{}', which is not a db_id", tab + 1, shown,
                                 Trim(tail).size() > 40 ? "..." : "");
    return out;
  }
  out.sql = line.substr(0, tab);
  out.db_id = tail;
  return out;
}

std::vector<size_t> SelectQuestions(const Benchmark& benchmark, const Selection& selection) {
  std::vector<size_t> out;
  const auto& dbs = selection.databases;
  for (size_t i = 0; i < benchmark.questions.size(); ++i) {
    if ((selection.from && i < *selection.from) || (selection.to && i >= *selection.to)) continue;
    if (!dbs.empty() && std::find(dbs.begin(), dbs.end(), benchmark.questions[i].db_id) == dbs.end()) continue;
    out.push_back(i);
  }
  return out;
}

}  // namespace plainsql::eval

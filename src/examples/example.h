// A solved question in an example store (issue #17): what NATURAL's example selection compares and what a prompt shows.
#pragma once

#include <cstdint>
#include <string>

namespace plainsql::examples {

struct Example {
  int64_t id = 0;               // the store's row id; 0 before it is stored
  std::string db_id;            // the database it was asked of
  std::string question;         // as asked
  std::string sql;              // the solving query, as written
  std::string masked_question;  // schema mentions and values replaced by placeholders (examples::MaskQuestion)
  std::string masked_sql;       // sql::Mask printed; also the example's skeleton
};

}  // namespace plainsql::examples

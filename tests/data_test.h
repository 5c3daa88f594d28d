// For tests that read ../shared/data: a missing file skips the test on a developer's machine and fails it under CI
// (the environment variable CI set, as CI sets CI=true), where a data test that skips would pass without testing.
//   if (!fs::exists(path)) PLAINSQL_DATA_MISSING() << path << " not found";
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

namespace plainsql::test {

inline bool UnderCi() { return std::getenv("CI") != nullptr; }

}  // namespace plainsql::test

// GTEST_SKIP() and FAIL() in one: GoogleTest's own message macro with the result type chosen at run time.
#define PLAINSQL_DATA_MISSING()                                                              \
  return GTEST_MESSAGE_AT_(                                                                  \
      __FILE__, __LINE__,                                                                    \
      ::plainsql::test::UnderCi() ? "Data missing (CI: data tests fail instead of skipping)" \
                                  : "Data missing, skipped",                                 \
      ::plainsql::test::UnderCi() ? ::testing::TestPartResult::kFatalFailure : ::testing::TestPartResult::kSkip)

// Names and exit codes of error codes.
#include "common/status.h"

namespace plainsql {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kConnection: return "connection";
    case ErrorCode::kNotReadOnly: return "not_read_only";
    case ErrorCode::kNotAllowed: return "not_allowed";
    case ErrorCode::kResourceLimit: return "resource_limit";
    case ErrorCode::kSql: return "sql";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kFormat: return "format";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

int ExitCodeFor(ErrorCode code) {
  // 1 is left for failures no code describes; 2 is the usage error of the argument parser.
  switch (code) {
    case ErrorCode::kInvalidArgument: return 2;
    case ErrorCode::kNotFound: return 3;
    case ErrorCode::kConnection: return 4;
    case ErrorCode::kNotReadOnly: return 5;
    case ErrorCode::kNotAllowed: return 10;
    case ErrorCode::kResourceLimit: return 11;
    case ErrorCode::kSql: return 6;
    case ErrorCode::kTimeout: return 7;
    case ErrorCode::kIo: return 8;
    case ErrorCode::kFormat: return 9;
    case ErrorCode::kInternal: return 70;  // EX_SOFTWARE in sysexits.h
  }
  return 1;
}

}  // namespace plainsql

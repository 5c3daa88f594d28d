// Writing files safely (see file.h).
#include "common/file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

namespace plainsql {

Result<std::string> ReadFileToString(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("{} is a directory, not a file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
  // Read in blocks: an istreambuf_iterator goes a character at a time, which made loading the word lists and
  // WordNet the largest part of a short command's time (twenty times over in an unoptimized build).
  std::string out;
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    out.append(block, static_cast<size_t>(in.gcount()));
    if (!in) break;
  }
  if (in.bad()) return MakeError(ErrorCode::kIo, fmt::format("error reading {}", path));
  return out;
}

Status WriteFileAtomically(const std::string& path_string, std::string_view content) {
  namespace fs = std::filesystem;
  fs::path path(path_string);
  std::error_code ec;
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      return MakeError(ErrorCode::kIo, fmt::format("cannot create {}: {}", path.parent_path().string(), ec.message()));
    }
  }
  fs::path tmp = path;
  tmp += fmt::format(".tmp{}", getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out.flush()) {
      out.close();
      fs::remove(tmp, ec);
      return MakeError(ErrorCode::kIo, fmt::format("cannot write {}", tmp.string()));
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return MakeError(ErrorCode::kIo, fmt::format("cannot write {}", path.string()));
  }
  return Status::Ok();
}

namespace {
std::string& DataDirOverride() {
  static std::string dir;
  return dir;
}
}  // namespace

void SetDataDir(std::string dir) { DataDirOverride() = std::move(dir); }

std::string DataDir() {
  namespace fs = std::filesystem;
  if (!DataDirOverride().empty()) return DataDirOverride();
  if (const char* env = std::getenv("PLAINSQL_DATA_DIR"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "plainsql";
    if (fs::exists(installed / "naturalness.model", ec)) return installed.string();
  }
#ifdef PLAINSQL_SOURCE_DATA_DIR
  if (fs::is_directory(PLAINSQL_SOURCE_DATA_DIR, ec)) return PLAINSQL_SOURCE_DATA_DIR;
#endif
  return "data";
}

}  // namespace plainsql

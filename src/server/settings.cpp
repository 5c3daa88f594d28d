// The command-line rules of `plainsql serve` (see settings.h).
#include "server/settings.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/file.h"
#include "common/strings.h"
#include "exec/connection.h"

namespace plainsql::server {

DatabaseSpec ParseDatabaseSpec(const std::string& arg, size_t index) {
  DatabaseSpec spec;
  size_t eq = arg.find('=');
  size_t scheme = arg.find("://");
  if (eq != std::string::npos && eq > 0 && (scheme == std::string::npos || eq < scheme)) {
    spec.name = arg.substr(0, eq);
    spec.url = arg.substr(eq + 1);
    return spec;
  }
  spec.url = arg;
  auto info = exec::ParseConnectionString(arg);
  std::string stem =
      info && info->engine == exec::Engine::kSqlite ? std::filesystem::path(info->target).stem().string() : "";
  spec.name = !stem.empty() ? stem : index == 0 ? "db" : fmt::format("db{}", index + 1);
  return spec;
}

Result<ListenAddress> ParseListenAddress(const std::string& text) {
  ListenAddress out{"127.0.0.1", -1};
  std::string port = text;
  if (size_t colon = text.rfind(':'); colon != std::string::npos) {
    out.host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (out.host.size() >= 2 && out.host.front() == '[' && out.host.back() == ']') {
      out.host = out.host.substr(1, out.host.size() - 2);
    }
  }
  try {
    size_t used = 0;
    out.port = std::stoi(port, &used);
    if (used != port.size()) out.port = -1;
  } catch (const std::exception&) {
    out.port = -1;
  }
  if (out.host.empty() || out.port < 0 || out.port > 65535) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("--listen {}: expected HOST:PORT", text));
  }
  return out;
}

bool IsLoopback(std::string_view address) {
  return address == "localhost" || address == "::1" || address.rfind("127.", 0) == 0 ||
         address.rfind("::ffff:127.", 0) == 0;
}

Result<std::string> ReadTokenFile(const std::string& path) {
  auto text = ReadFileToString(path);
  if (!text) return MakeError(ErrorCode::kIo, fmt::format("cannot read the token file {}", path));
  std::string token = TrimmedCopy(*text);
  if (token.size() < kMinTokenLength) {
    return MakeError(ErrorCode::kInvalidArgument, fmt::format("the token in {} is {} characters long; use at least {}",
                                                              path, token.size(), kMinTokenLength));
  }
  return token;
}

Status CheckExposure(const ListenAddress& address, const std::string& token) {
  if (!token.empty() || IsLoopback(address.host)) return Status::Ok();
  return MakeError(ErrorCode::kInvalidArgument,
                   fmt::format("--listen {}:{}: an address other than loopback needs --token-file (anyone who can "
                               "reach it could query the databases)",
                               address.host, address.port));
}

}  // namespace plainsql::server

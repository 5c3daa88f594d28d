// What `plainsql serve` reads from its command line before anything is opened, as library functions so that the rules
// are tested here and not in the program: a database's name and URL, the address to listen on, the token, and the
// rule that only loopback may be served without one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"
#include "server/service.h"

namespace plainsql::server {

/// "NAME=URL", or a bare URL: a SQLite file is named after its file ("plant.db" -> "plant"), anything else "db" for the
/// first database and "dbN" for the N-th.
DatabaseSpec ParseDatabaseSpec(const std::string& arg, size_t index);

struct ListenAddress {
  std::string host;
  int port = 0;  // 0: any free port
};
/// "HOST:PORT", "[IPv6]:PORT" or "PORT" (on 127.0.0.1).
Result<ListenAddress> ParseListenAddress(const std::string& text);

/// Whether an address or host name is this machine's loopback (127.0.0.0/8, ::1, an IPv4-mapped 127.x, localhost).
bool IsLoopback(std::string_view address);

/// The token a token file holds (surrounding white space removed); refused when shorter than 16 characters.
Result<std::string> ReadTokenFile(const std::string& path);
inline constexpr size_t kMinTokenLength = 16;

/// Refuses to serve an address other than loopback without a token: anyone who can reach it could query the databases.
Status CheckExposure(const ListenAddress& address, const std::string& token);

}  // namespace plainsql::server

// Reading whole files, and writing files safely.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace plainsql {

/// Writes `content` to `path` through a temporary file beside it and a rename, creating the directory if needed: a
/// reader sees the old file or the new one, never half of one, and a failure leaves the old file as it was.
Status WriteFileAtomically(const std::string& path, std::string_view content);

/// The whole content of a file (kNotFound when it cannot be opened, kIo on a read error).
Result<std::string> ReadFileToString(const std::string& path);

/// The folder of the data files plainsql ships (the naturalness model, word lists, prompt templates):
/// the folder SetDataDir named, when it did; else $PLAINSQL_DATA_DIR when set; else share/plainsql beside the program's
/// bin folder when it holds naturalness.model; else the source tree's data folder of this build; else "data".
std::string DataDir();

/// Names the data folder for the whole process ("" forgets it): a program or a host (the PostgreSQL extension, whose
/// executable is the server's) that knows where the files were installed. Call before loading anything.
void SetDataDir(std::string dir);

}  // namespace plainsql

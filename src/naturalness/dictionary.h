// Data dictionaries: the text of the documents that explain a schema's names (CSV exports, plain text, XML
// metadata such as FGDC/ISO records or Access documenter output, PDF manuals), for the expander's evidence
// (Expander::AddEvidence). SNAILS searched such documents for each identifier's context.
#pragma once

#include <string>

#include "common/status.h"

namespace plainsql::naturalness {

/// The text of a data dictionary, by its extension: `.xml` — every text node and attribute value (pugixml), one per
/// line; `.pdf` — the text of every page (poppler); anything else — the file as it is (CSV, TSV, text, Markdown; read
/// as Windows-1252 when it is not UTF-8). A folder gives the text of each of its files in name order (BIRD's
/// `database_description`). catalog/dictionary.h reads the CSV forms field by field, into the schema's comments.
/// Fails with kNotFound for a missing file and kFormat for an XML or PDF file that cannot be read.
Result<std::string> DictionaryText(const std::string& path);

}  // namespace plainsql::naturalness
